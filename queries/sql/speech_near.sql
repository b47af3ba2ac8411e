-- name: speech_near
-- kind: macro
-- returns: video_id, segment_id, start_s, end_s, text, distance_s
-- summary: Transcript segments within `window_s` seconds of time `at_s`, in time order; distance_s = 0 when
--   spoken across at_s.
CREATE OR REPLACE MACRO speech_near(vid, at_s, window_s := 10.0) AS TABLE
SELECT video_id, segment_id, start_s, end_s, text, greatest(0.0, start_s - at_s, at_s - end_s) AS distance_s
FROM transcript
WHERE video_id = vid
  AND end_s >= at_s - window_s AND start_s <= at_s + window_s
  AND CASE WHEN window_s IS NULL OR window_s < 0
           THEN error('window_s must be >= 0, got ' || coalesce(window_s::VARCHAR, 'NULL'))
      ELSE true END
ORDER BY start_s, segment_id;
