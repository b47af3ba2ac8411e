-- name: similar_texts
-- kind: macro
-- returns: video_id, source, item_id, start_s, end_s, text, model, score
-- summary: The `k` texts whose sentence embedding is nearest (cosine) to vector `vec`; filter by `sources`
--   (e.g. ['transcript']), `vid`, `model_name`.
CREATE OR REPLACE MACRO similar_texts(vec, k := 10, vid := NULL, sources := NULL, model_name := NULL) AS TABLE
WITH hits AS (
    SELECT video_id, source, item_id, model, list_cosine_similarity(embedding, vec::FLOAT[]) AS score
    FROM text_embeddings
    WHERE (vid IS NULL OR video_id = vid)
      AND (sources IS NULL OR list_contains(sources, source))
      AND (model_name IS NULL OR model = model_name)
      AND len(embedding) = len(vec)
    ORDER BY score DESC, video_id, source, item_id
    LIMIT k
)
SELECT h.video_id, h.source, h.item_id, i.start_s, i.end_s, i.text, h.model, h.score
FROM hits AS h
LEFT JOIN text_items AS i ON i.video_id = h.video_id AND i.source = h.source AND i.item_id = h.item_id
ORDER BY h.score DESC, h.video_id, h.source, h.item_id;
