-- name: track_path
-- kind: macro
-- returns: video_id, track_id, category, frame_index, t_s, x1, y1, x2, y2, cx, cy, confidence
-- summary: The sampled boxes of track `tid` in time order with centres cx, cy: its trajectory.
CREATE OR REPLACE MACRO track_path(vid, tid) AS TABLE
SELECT video_id, track_id, category, frame_index, t_s, x1, y1, x2, y2,
       (x1 + x2) / 2 AS cx, (y1 + y2) / 2 AS cy, confidence
FROM detections
WHERE video_id = vid AND track_id = tid
ORDER BY t_s;
