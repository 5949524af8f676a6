/// The page's style: the map beside the timeline and the table, events coloured by kind (enter green,
/// exit red, dwell gold, visit blue), one outline colour per profile layer.
enum ReportStyle {
    static let css = """
        :root { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2327; background: #fafafa; }
        body { margin: 0; }
        header { padding: 12px 20px 4px; border-bottom: 1px solid #ddd; background: #fff; }
        h1 { font-size: 20px; margin: 0; } h2 { font-size: 15px; margin: 16px 0 6px; }
        .subtitle, .note { color: #5f6b73; font-size: 12px; margin: 4px 0; }
        main { display: flex; flex-wrap: wrap; gap: 16px; padding: 12px 20px; }
        #map-panel { flex: 3 1 560px; min-width: 320px; }
        #side { flex: 2 1 420px; min-width: 320px; }
        .controls { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin-bottom: 6px; }
        #map-frame { position: relative; border: 1px solid #ccd; background: #f3f6f4; }
        #map { display: block; width: 100%; height: 62vh; min-height: 360px; cursor: grab; touch-action: none; }
        #map.dragging { cursor: grabbing; }
        .region { fill: rgba(47, 111, 186, 0.13); stroke: #2f6fba; stroke-width: 1.5px; vector-effect: non-scaling-stroke; fill-rule: evenodd; }
        .region.picked { stroke-width: 3.5px; fill: rgba(47, 111, 186, 0.25); }
        .card { border: 1px solid #c9d3de; border-radius: 6px; padding: 4px 12px; margin-bottom: 12px; background: #f7f9fb; }
        .card ul { margin: 4px 0; padding-left: 18px; }
        .track { fill: none; stroke: #444; stroke-width: 1.5px; vector-effect: non-scaling-stroke; stroke-linejoin: round; opacity: 0.75; }
        .event { r: calc(var(--u, 1) * 6px); stroke-width: 1.5px; vector-effect: non-scaling-stroke; cursor: pointer; }
        .dimmed { display: none; }
        circle.kind-enter, rect.kind-enter, span.kind-enter { fill: #2e9e44; background: #2e9e44; }
        circle.kind-exit, rect.kind-exit, span.kind-exit { fill: #d2352b; background: #d2352b; }
        circle.kind-dwell, rect.kind-dwell, span.kind-dwell { fill: #d8a106; background: #d8a106; }
        circle.kind-visit, rect.kind-visit, span.kind-visit { fill: #2f6fba; background: #2f6fba; }
        .profile-0 .event { stroke: #111; } .profile-1 .event { stroke: #7b3fa0; } .profile-2 .event { stroke: #e07b00; }
        .profile-3 .event { stroke: #008c8c; }
        .controls label[class^="profile-"] { border-left-width: 5px; border-left-style: solid; padding-left: 5px; }
        label.profile-0 { border-color: #111; } label.profile-1 { border-color: #7b3fa0; } label.profile-2 { border-color: #e07b00; }
        label.profile-3 { border-color: #008c8c; }
        #legend { position: absolute; right: 8px; top: 8px; font-size: 12px; }
        #legend span { color: #fff; padding: 1px 6px; border-radius: 3px; }
        #scale-overlay { position: absolute; left: 8px; bottom: 8px; }
        #scale-bar rect { fill: #1d2327; } #scale-bar text { font-size: 12px; fill: #1d2327; }
        #tooltip { display: none; position: fixed; z-index: 10; max-width: 360px; padding: 6px 8px; background: #1d2327;
          color: #fff; font-size: 12px; border-radius: 4px; white-space: pre-line; pointer-events: none; }
        .device-timeline { margin: 0 0 10px; } figcaption { font-weight: 600; font-size: 13px; }
        .row-label { font-size: 12px; fill: #333; } .axis { stroke: #ddd; stroke-width: 1; } .axis-label { font-size: 11px; fill: #777; text-anchor: middle; }
        .inside { fill: rgba(47, 111, 186, 0.25); } .band { fill: rgba(216, 161, 6, 0.28); }
        table { border-collapse: collapse; font-size: 12px; width: 100%; }
        th, td { padding: 3px 6px; text-align: right; border-bottom: 1px solid #e3e3e3; }
        th:nth-child(-n+2), td:nth-child(-n+2) { text-align: left; } tr.first td { border-top: 1px solid #bbb; }
        footer { color: #8a949b; font-size: 11px; padding: 8px 20px 16px; }
        """

    /// A page's doctype and `<head>`, through `</head>` (no newline after it): the title (template
    /// text), the inline style, and a content security policy that allows inline style and script only,
    /// and images from `images` when given (report's `--tiles`).
    static func head(title: String, style: String, images: String? = nil) -> String {
        let policy =
            "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"
            + (images.map { "; img-src " + $0 } ?? "")
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="\(policy)">
            <title>\(title)</title>
            <style>\(style)</style>
            </head>
            """
    }
}
