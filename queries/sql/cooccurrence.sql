-- name: cooccurrence
-- kind: macro
-- returns: video_id, category_a, category_b, interval_id, start_s, end_s, duration_s, frames
-- summary: Intervals when `cat_a` and `cat_b` are visible at the same sampled time (same category twice: 2+
--   instances), merged when at most `gap_s` apart.
CREATE OR REPLACE MACRO cooccurrence(vid, cat_a, cat_b, gap_s := 1.0) AS TABLE
WITH per_time AS (
    SELECT t_s,
           count(*) FILTER (WHERE category = cat_a) AS n_a,  -- one box per track and frame
           count(*) FILTER (WHERE category = cat_b) AS n_b
    FROM detections
    WHERE video_id = vid AND category IN (cat_a, cat_b)
      AND CASE WHEN gap_s IS NULL OR gap_s < 0 THEN error('gap_s must be >= 0, got ' || coalesce(gap_s::VARCHAR, 'NULL'))
          ELSE true END
    GROUP BY t_s
), together AS (
    SELECT t_s FROM per_time WHERE CASE WHEN cat_a = cat_b THEN n_a >= 2 ELSE n_a >= 1 AND n_b >= 1 END
), islands AS (
    SELECT t_s,
           sum(CASE WHEN t_s - prev_s <= gap_s THEN 0 ELSE 1 END) OVER (ORDER BY t_s ROWS UNBOUNDED PRECEDING)
               AS interval_id
    FROM (SELECT t_s, lag(t_s) OVER (ORDER BY t_s) AS prev_s FROM together)
)
SELECT vid AS video_id, cat_a AS category_a, cat_b AS category_b, interval_id::INTEGER AS interval_id,
       min(t_s) AS start_s, max(t_s) AS end_s, max(t_s) - min(t_s) AS duration_s, count(*) AS frames
FROM islands
GROUP BY interval_id
ORDER BY start_s;
