-- name: similar_frames
-- kind: macro
-- returns: video_id, frame_index, t_s, model, score
-- summary: The `k` frames whose embedding is nearest (cosine) to vector `vec` (e.g. CLIP text or image
--   embedding), best first.
CREATE OR REPLACE MACRO similar_frames(vec, k := 10, vid := NULL, model_name := NULL) AS TABLE
SELECT video_id, frame_index, t_s, model, list_cosine_similarity(embedding, vec::FLOAT[]) AS score
FROM frame_embeddings
WHERE (vid IS NULL OR video_id = vid)
  AND (model_name IS NULL OR model = model_name)
  AND len(embedding) = len(vec)
ORDER BY score DESC, video_id, frame_index
LIMIT k;
