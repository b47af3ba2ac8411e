-- name: track_cooccurrence
-- kind: macro
-- returns: video_id, track_a, track_b, interval_id, start_s, end_s, duration_s, frames
-- summary: Intervals when tracks `tid_a` and `tid_b` are both visible, merged when at most `gap_s` apart.
CREATE OR REPLACE MACRO track_cooccurrence(vid, tid_a, tid_b, gap_s := 1.0) AS TABLE
WITH together AS (
    SELECT t_s
    FROM detections
    WHERE video_id = vid AND track_id IN (tid_a, tid_b)
      AND CASE WHEN gap_s IS NULL OR gap_s < 0 THEN error('gap_s must be >= 0, got ' || coalesce(gap_s::VARCHAR, 'NULL'))
          ELSE true END
    GROUP BY t_s
    HAVING count(DISTINCT track_id) = 2
), islands AS (
    SELECT t_s,
           sum(CASE WHEN t_s - prev_s <= gap_s THEN 0 ELSE 1 END) OVER (ORDER BY t_s ROWS UNBOUNDED PRECEDING)
               AS interval_id
    FROM (SELECT t_s, lag(t_s) OVER (ORDER BY t_s) AS prev_s FROM together)
)
SELECT vid AS video_id, tid_a AS track_a, tid_b AS track_b, interval_id::INTEGER AS interval_id,
       min(t_s) AS start_s, max(t_s) AS end_s, max(t_s) - min(t_s) AS duration_s, count(*) AS frames
FROM islands
GROUP BY interval_id
ORDER BY start_s;
