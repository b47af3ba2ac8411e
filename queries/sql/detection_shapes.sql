-- name: detection_shapes
-- kind: view
-- returns: video_id, track_id, frame_index, t_s, category, confidence, x1, y1, x2, y2, has_mask, cx, cy,
--   centroid_of, mask_area, box_area, fill
-- summary: Every detection with the shape a segmentation model stored: cx, cy is the centroid of the
--   instance mask (px; centroid_of = 'mask'), or the box centre when the box has no mask ('box');
--   mask_area in px^2; fill = mask_area / box_area, how much of its box the object covers (NULL without a mask).
CREATE OR REPLACE VIEW detection_shapes AS
WITH parsed AS (
    -- mask_polygon is JSON [[x, y], ...]; TRY: a malformed outline counts as no mask, not as an error
    SELECT d.*, TRY(json_transform(d.mask_polygon, '[["DOUBLE"]]')) AS pts FROM detections AS d
), crossed AS (
    -- shoelace terms x_i * y_(i+1) - x_(i+1) * y_i, the polygon closed from the last point to the first
    SELECT *,
           list_transform(range(1, len(pts) + 1),
                          lambda i: pts[i][1] * pts[i % len(pts) + 1][2] - pts[i % len(pts) + 1][1] * pts[i][2]) AS xs
    FROM parsed
), summed AS (
    SELECT *,
           list_sum(xs) AS twice_area,
           list_sum(list_transform(range(1, len(pts) + 1), lambda i: (pts[i][1] + pts[i % len(pts) + 1][1]) * xs[i]))
               AS mx,
           list_sum(list_transform(range(1, len(pts) + 1), lambda i: (pts[i][2] + pts[i % len(pts) + 1][2]) * xs[i]))
               AS my,
           coalesce(len(pts) >= 3 AND abs(list_sum(xs)) > 1e-9, false) AS has_mask,
           (x2 - x1) * (y2 - y1) AS box_area
    FROM crossed
)
SELECT video_id, track_id, frame_index, t_s, category, confidence, x1, y1, x2, y2, has_mask,
       CASE WHEN has_mask THEN mx / (3 * twice_area) ELSE (x1 + x2) / 2 END AS cx,
       CASE WHEN has_mask THEN my / (3 * twice_area) ELSE (y1 + y2) / 2 END AS cy,
       CASE WHEN has_mask THEN 'mask' ELSE 'box' END AS centroid_of,
       mask_area, box_area,
       CASE WHEN has_mask AND box_area > 0 THEN mask_area / box_area END AS fill
FROM summed;
