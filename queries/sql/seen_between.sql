-- name: seen_between
-- kind: macro
-- returns: video_id, track_id, category, t_s, confidence, x1, y1, x2, y2
-- summary: Boxes found from `from_s` to `to_s` with the confidence that starts a track, of tracks whose
--   boxes average 0.4 or more, one per object; count per t_s.
CREATE OR REPLACE MACRO seen_between(vid, from_s, to_s) AS TABLE
WITH gate AS (
    SELECT coalesce(max(try_cast(json_extract_string(settings, '$.tracking.confidence') AS DOUBLE)), 0.25) AS c
    FROM videos WHERE video_id = vid
),
found AS (
    SELECT d.video_id, d.track_id, d.category, d.t_s, d.confidence, d.x1, d.y1, d.x2, d.y2
    FROM detections AS d CROSS JOIN gate
    -- a track whose boxes average under 0.4 is no object to count: the cartoon rabbit was a person at
    -- 0.29 and 0.36 (people in the street average 0.45-0.5); on the question sets' 50 hand counts at a
    -- second, 36 right against 30 without it
    LEFT JOIN tracks AS t ON t.video_id = d.video_id AND t.track_id = d.track_id
    WHERE d.video_id = vid AND d.t_s BETWEEN from_s AND to_s AND d.confidence >= gate.c
      AND coalesce(t.mean_confidence, 1.0) >= 0.4
)
SELECT f.* FROM found AS f
-- the detector can box one object twice (its NMS keeps two boxes that overlap less than its IoU cut: a
-- lying figure boxed whole and by its upper half, counted as two people); a box nine tenths inside a
-- larger one of its category is the same object, for counting. A left join, because NOT EXISTS and
-- ANTI JOIN fail to bind under seen_at's lateral call (DuckDB 1.5).
LEFT JOIN found AS o
    ON o.t_s = f.t_s AND o.category = f.category AND o.track_id <> f.track_id
    AND ((o.x2 - o.x1) * (o.y2 - o.y1) > (f.x2 - f.x1) * (f.y2 - f.y1)
         OR ((o.x2 - o.x1) * (o.y2 - o.y1) = (f.x2 - f.x1) * (f.y2 - f.y1) AND o.track_id < f.track_id))
    AND greatest(least(o.x2, f.x2) - greatest(o.x1, f.x1), 0) * greatest(least(o.y2, f.y2) - greatest(o.y1, f.y1), 0)
        >= 0.9 * greatest((f.x2 - f.x1) * (f.y2 - f.y1), 1e-9)
WHERE o.track_id IS NULL
ORDER BY f.t_s, f.track_id;
