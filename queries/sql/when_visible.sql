-- name: when_visible
-- kind: macro
-- returns: video_id, category, interval_id, start_s, end_s, duration_s, frames, instances, max_visible
-- summary: Intervals when category `cat` is visible: sampled times merged when at most `gap_s` apart.
--   instances: distinct tracks in the interval; max_visible: most at one time.
CREATE OR REPLACE MACRO when_visible(vid, cat, gap_s := 1.0) AS TABLE
WITH dets AS (
    SELECT t_s, track_id
    FROM detections
    WHERE video_id = vid AND category = cat
      AND CASE WHEN gap_s IS NULL OR gap_s < 0 THEN error('gap_s must be >= 0, got ' || coalesce(gap_s::VARCHAR, 'NULL'))
          ELSE true END
), times AS (
    -- a track has one box per sampled frame (schema), so count(*) counts instances
    SELECT t_s, count(*) AS n FROM dets GROUP BY t_s
), islands AS (
    SELECT t_s, n,
           sum(CASE WHEN t_s - prev_s <= gap_s THEN 0 ELSE 1 END) OVER (ORDER BY t_s ROWS UNBOUNDED PRECEDING)
               AS interval_id
    FROM (SELECT t_s, n, lag(t_s) OVER (ORDER BY t_s) AS prev_s FROM times)
), spans AS (
    SELECT interval_id, min(t_s) AS start_s, max(t_s) AS end_s, count(*) AS frames, max(n) AS max_visible
    FROM islands GROUP BY interval_id
), instances AS (
    SELECT i.interval_id, count(DISTINCT d.track_id) AS instances
    FROM dets AS d JOIN islands AS i ON i.t_s = d.t_s
    GROUP BY i.interval_id
)
SELECT vid AS video_id, cat AS category, s.interval_id::INTEGER AS interval_id, s.start_s, s.end_s,
       s.end_s - s.start_s AS duration_s, s.frames, n.instances, s.max_visible
FROM spans AS s JOIN instances AS n ON n.interval_id = s.interval_id
ORDER BY s.start_s;
