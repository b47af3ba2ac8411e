-- name: seen_at
-- kind: macro
-- returns: video_id, track_id, category, t_s, confidence, x1, y1, x2, y2
-- summary: seen_between at the detected frame nearest `at_s`: who can be seen then, for counting
--   (tracks_at also has tracks alive but not found then, so it counts more).
CREATE OR REPLACE MACRO seen_at(vid, at_s) AS TABLE
WITH nearest AS (
    -- a sample the detector skipped (motion skip) has only interpolated boxes: the nearest frame
    -- with a box the detector found stands in for it
    SELECT t_s FROM detections WHERE video_id = vid AND confidence > 0 ORDER BY abs(t_s - at_s), t_s LIMIT 1
)
SELECT s.* FROM nearest, seen_between(vid, nearest.t_s, nearest.t_s) AS s
ORDER BY s.track_id;
