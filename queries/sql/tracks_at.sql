-- name: tracks_at
-- kind: macro
-- returns: video_id, track_id, category, t_s, x1, y1, x2, y2, cx, cy, before_s, after_s, interpolated
-- summary: Every track alive at time `at_s` with its box interpolated as in track_position.
CREATE OR REPLACE MACRO tracks_at(vid, at_s) AS TABLE
WITH alive AS (
    SELECT track_id, category FROM tracks WHERE video_id = vid AND first_s <= at_s AND last_s >= at_s
), dets AS (
    SELECT d.track_id, d.t_s, d.x1, d.y1, d.x2, d.y2
    FROM detections AS d SEMI JOIN alive ON d.track_id = alive.track_id
    WHERE d.video_id = vid
), b AS (
    SELECT track_id, max(t_s) AS t0, arg_max(x1, t_s) AS x1, arg_max(y1, t_s) AS y1,
           arg_max(x2, t_s) AS x2, arg_max(y2, t_s) AS y2
    FROM dets WHERE t_s <= at_s GROUP BY track_id
), a AS (
    SELECT track_id, min(t_s) AS t1, arg_min(x1, t_s) AS x1, arg_min(y1, t_s) AS y1,
           arg_min(x2, t_s) AS x2, arg_min(y2, t_s) AS y2
    FROM dets WHERE t_s >= at_s GROUP BY track_id
), mixed AS (
    SELECT b.track_id, b.t0 AS before_s, a.t1 AS after_s,
           CASE WHEN a.t1 = b.t0 THEN 0.0 ELSE (at_s - b.t0) / (a.t1 - b.t0) END AS f,
           b.x1 + f * (a.x1 - b.x1) AS x1, b.y1 + f * (a.y1 - b.y1) AS y1,
           b.x2 + f * (a.x2 - b.x2) AS x2, b.y2 + f * (a.y2 - b.y2) AS y2
    FROM b JOIN a ON a.track_id = b.track_id
)
SELECT vid AS video_id, m.track_id, alive.category, at_s::DOUBLE AS t_s, m.x1, m.y1, m.x2, m.y2,
       (m.x1 + m.x2) / 2 AS cx, (m.y1 + m.y2) / 2 AS cy, m.before_s, m.after_s,
       m.before_s <> m.after_s AS interpolated
FROM mixed AS m JOIN alive ON alive.track_id = m.track_id
ORDER BY m.track_id;
