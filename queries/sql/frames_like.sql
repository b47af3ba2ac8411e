-- name: frames_like
-- kind: macro
-- returns: video_id, frame_index, t_s, model, score
-- summary: Search by example: the `k` frames (any video) most like the embedded frame of `vid` nearest to
--   `at_s`.
CREATE OR REPLACE MACRO frames_like(vid, at_s, k := 10) AS TABLE
WITH probe AS (
    SELECT video_id, frame_index, model, embedding
    FROM frame_embeddings
    WHERE video_id = vid
    ORDER BY abs(t_s - at_s), frame_index
    LIMIT 1
)
SELECT f.video_id, f.frame_index, f.t_s, f.model, list_cosine_similarity(f.embedding, p.embedding) AS score
FROM frame_embeddings AS f
JOIN probe AS p ON f.model = p.model AND len(f.embedding) = len(p.embedding)
WHERE NOT (f.video_id = p.video_id AND f.frame_index = p.frame_index)
ORDER BY score DESC, f.video_id, f.frame_index
LIMIT k;
