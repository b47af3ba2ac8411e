-- name: seen_between
-- kind: macro
-- returns: video_id, track_id, category, t_s, confidence, x1, y1, x2, y2
-- summary: Boxes found from `from_s` to `to_s` with the confidence that starts a track; count per t_s.
CREATE OR REPLACE MACRO seen_between(vid, from_s, to_s) AS TABLE
WITH gate AS (
    SELECT coalesce(max(try_cast(json_extract_string(settings, '$.tracking.confidence') AS DOUBLE)), 0.25) AS c
    FROM videos WHERE video_id = vid
)
SELECT d.video_id, d.track_id, d.category, d.t_s, d.confidence, d.x1, d.y1, d.x2, d.y2
FROM detections AS d, gate
WHERE d.video_id = vid AND d.t_s BETWEEN from_s AND to_s AND d.confidence >= gate.c
ORDER BY d.t_s, d.track_id;
