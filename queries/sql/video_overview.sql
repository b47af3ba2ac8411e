-- name: video_overview
-- kind: view
-- returns: video_id, path, status, duration_s, tracks, categories, speech_segments, text_spans,
--   captions, frames_embedded
-- summary: One row per video: length, and how many tracks, speech segments, text spans, captions and
--   embedded frames it has.
CREATE OR REPLACE VIEW video_overview AS
SELECT v.video_id, v.path, v.status, v.duration_s,
       coalesce(t.n, 0) AS tracks, t.categories,
       coalesce(s.n, 0) AS speech_segments, coalesce(o.n, 0) AS text_spans,
       coalesce(c.n, 0) AS captions, coalesce(f.n, 0) AS frames_embedded
FROM videos AS v
LEFT JOIN (
    SELECT video_id, count(*) AS n, string_agg(DISTINCT category, ', ' ORDER BY category) AS categories
    FROM tracks GROUP BY video_id
) AS t ON t.video_id = v.video_id
LEFT JOIN (SELECT video_id, count(*) AS n FROM transcript GROUP BY video_id) AS s ON s.video_id = v.video_id
LEFT JOIN (SELECT video_id, count(*) AS n FROM ocr_spans GROUP BY video_id) AS o ON o.video_id = v.video_id
LEFT JOIN (SELECT video_id, count(*) AS n FROM captions GROUP BY video_id) AS c ON c.video_id = v.video_id
LEFT JOIN (SELECT video_id, count(*) AS n FROM frame_embeddings GROUP BY video_id) AS f ON f.video_id = v.video_id;
