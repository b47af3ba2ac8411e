-- name: timeline
-- kind: view
-- returns: video_id, kind, start_s, end_s, item_id, track_id, category, text
-- summary: Every event of every video on one time axis. kind: 'speech', 'text' (on screen), 'caption',
--   'appear'/'leave' (a track's first/last sighting), 'action'. item_id: segment_id, span_id, caption_id or
--   track_id.
CREATE OR REPLACE VIEW timeline AS
SELECT video_id, 'speech' AS kind, start_s, end_s, segment_id AS item_id,
       NULL::INTEGER AS track_id, NULL::VARCHAR AS category, text
FROM transcript
UNION ALL
SELECT video_id, 'text', start_s, end_s, span_id, NULL, NULL, text
FROM ocr_spans
UNION ALL
SELECT c.video_id, 'caption', c.start_s, c.end_s, c.caption_id, NULL, NULL, c.text
FROM captions AS c
WHERE c.level = 'clip'
   OR NOT EXISTS (SELECT 1 FROM captions AS cc WHERE cc.video_id = c.video_id AND cc.level = 'clip')
UNION ALL
SELECT video_id, 'appear', first_s, first_s, track_id, track_id, category,
       category || ' #' || track_id || ' appears' || coalesce(': ' || appearance, '')
FROM tracks
UNION ALL
SELECT video_id, 'leave', last_s, last_s, track_id, track_id, category,
       category || ' #' || track_id || ' leaves' || coalesce(': ' || appearance, '')
FROM tracks
UNION ALL
SELECT a.video_id, 'action', a.start_s, a.end_s, a.track_id, a.track_id, t.category,
       coalesce(t.category || ' #' || a.track_id || ': ', '') || a.label
FROM actions AS a
LEFT JOIN tracks AS t ON t.video_id = a.video_id AND t.track_id = a.track_id;
