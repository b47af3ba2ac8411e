-- name: video_overview
-- kind: view
-- returns: video_id, path, status, duration_s, tracks, categories, speech_segments, text_spans,
--   captions, frames_embedded
-- summary: One row per video: length, and how many tracks, speech segments, text spans, captions and embedded
--   frames it has.
CREATE OR REPLACE VIEW video_overview AS
SELECT v.video_id, v.path, v.status, v.duration_s,
       (SELECT count(*) FROM tracks AS t WHERE t.video_id = v.video_id) AS tracks,
       (SELECT string_agg(DISTINCT t.category, ', ' ORDER BY t.category) FROM tracks AS t
         WHERE t.video_id = v.video_id) AS categories,
       (SELECT count(*) FROM transcript AS s WHERE s.video_id = v.video_id) AS speech_segments,
       (SELECT count(*) FROM ocr_spans AS o WHERE o.video_id = v.video_id) AS text_spans,
       (SELECT count(*) FROM captions AS c WHERE c.video_id = v.video_id) AS captions,
       (SELECT count(*) FROM frame_embeddings AS f WHERE f.video_id = v.video_id) AS frames_embedded
FROM videos AS v;
