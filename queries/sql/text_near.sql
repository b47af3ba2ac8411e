-- name: text_near
-- kind: macro
-- returns: video_id, span_id, start_s, end_s, text, x1, y1, x2, y2, distance_s
-- summary: On-screen text spans within `window_s` seconds of time `at_s`, in time order; distance_s = 0 when
--   on screen at at_s.
CREATE OR REPLACE MACRO text_near(vid, at_s, window_s := 5.0) AS TABLE
SELECT video_id, span_id, start_s, end_s, text, x1, y1, x2, y2,
       greatest(0.0, start_s - at_s, at_s - end_s) AS distance_s
FROM ocr_spans
WHERE video_id = vid
  AND end_s >= at_s - window_s AND start_s <= at_s + window_s
  AND CASE WHEN window_s IS NULL OR window_s < 0
           THEN error('window_s must be >= 0, got ' || coalesce(window_s::VARCHAR, 'NULL'))
      ELSE true END
ORDER BY start_s, span_id;
