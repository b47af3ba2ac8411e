-- name: category_pairs
-- kind: macro
-- returns: video_id, category_a, category_b, frames_together, first_s, last_s
-- summary: Category pairs seen together (a <= b; a category with itself: 2+ instances at once), most shared
--   frames first.
CREATE OR REPLACE MACRO category_pairs(vid) AS TABLE
WITH per_frame AS (
    SELECT frame_index, any_value(t_s) AS t_s, category, count(*) AS n  -- one box per track and frame
    FROM detections
    WHERE video_id = vid
    GROUP BY frame_index, category
)
SELECT vid AS video_id, a.category AS category_a, b.category AS category_b,
       count(*) AS frames_together, min(a.t_s) AS first_s, max(a.t_s) AS last_s
FROM per_frame AS a
JOIN per_frame AS b ON a.frame_index = b.frame_index AND a.category <= b.category
WHERE a.category < b.category OR a.n >= 2
GROUP BY a.category, b.category
ORDER BY frames_together DESC, category_a, category_b;
