-- name: seen_at
-- kind: macro
-- returns: video_id, track_id, category, t_s, confidence, x1, y1, x2, y2
-- summary: The objects the detector found at the sampled frame nearest `at_s`, with at least the
--   confidence that starts a track (the video's tracking.confidence): who can be seen at that moment,
--   for counting. tracks_at also has the tracks alive then but not found in that frame (occluded,
--   coasting), so it counts more.
CREATE OR REPLACE MACRO seen_at(vid, at_s) AS TABLE
WITH nearest AS (
    SELECT t_s FROM detections WHERE video_id = vid ORDER BY abs(t_s - at_s), t_s LIMIT 1
), gate AS (
    SELECT coalesce(max(try_cast(json_extract_string(settings, '$.tracking.confidence') AS DOUBLE)), 0.25) AS c
    FROM videos WHERE video_id = vid
)
SELECT d.video_id, d.track_id, d.category, d.t_s, d.confidence, d.x1, d.y1, d.x2, d.y2
FROM detections AS d, nearest, gate
WHERE d.video_id = vid AND d.t_s = nearest.t_s AND d.confidence >= gate.c
ORDER BY d.track_id;
