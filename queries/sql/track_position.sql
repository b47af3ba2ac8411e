-- name: track_position
-- kind: macro
-- returns: video_id, track_id, category, t_s, x1, y1, x2, y2, cx, cy, before_s, after_s, interpolated
-- summary: Box of track `tid` at time `at_s`, linearly interpolated between the sampled boxes at before_s and
--   after_s; no row outside the track's lifetime. cx, cy: centre (px).
CREATE OR REPLACE MACRO track_position(vid, tid, at_s) AS TABLE
WITH dets AS (
    SELECT t_s, category, x1, y1, x2, y2 FROM detections WHERE video_id = vid AND track_id = tid
), b AS (
    SELECT * FROM dets WHERE t_s <= at_s ORDER BY t_s DESC LIMIT 1
), a AS (
    SELECT * FROM dets WHERE t_s >= at_s ORDER BY t_s LIMIT 1
), mixed AS (
    SELECT b.category, b.t_s AS before_s, a.t_s AS after_s,
           CASE WHEN a.t_s = b.t_s THEN 0.0 ELSE (at_s - b.t_s) / (a.t_s - b.t_s) END AS f,
           b.x1 + f * (a.x1 - b.x1) AS x1, b.y1 + f * (a.y1 - b.y1) AS y1,
           b.x2 + f * (a.x2 - b.x2) AS x2, b.y2 + f * (a.y2 - b.y2) AS y2
    FROM b CROSS JOIN a
)
SELECT vid AS video_id, tid AS track_id, category, at_s::DOUBLE AS t_s, x1, y1, x2, y2,
       (x1 + x2) / 2 AS cx, (y1 + y2) / 2 AS cy, before_s, after_s, before_s <> after_s AS interpolated
FROM mixed;
