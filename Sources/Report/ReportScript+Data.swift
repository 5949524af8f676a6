extension ReportScript {
    /// Makes one `circle.event` per event of `data.events` in its profile's layer, with the event's
    /// fields as `data-` attributes (the tooltip reads them).
    static let markers = #"""
          function makeMarkers() {
            var layers = {};
            Array.prototype.forEach.call(document.querySelectorAll(".layer"), function (g) { layers[g.getAttribute("data-profile")] = g; });
            var parts = data.profiles.map(function () { return document.createDocumentFragment(); });
            data.events.forEach(function (e) {
              var c = document.createElementNS(SVG, "circle"), kind = data.kinds[e[5]];
              c.setAttribute("class", "event kind-" + kind);
              c.setAttribute("cx", e[1]); c.setAttribute("cy", e[2]);
              c.setAttribute("data-profile", data.profiles[e[0]]);
              c.setAttribute("data-device", data.devices[e[3]]);
              c.setAttribute("data-region", data.regions[e[4]]);
              c.setAttribute("data-kind", kind);
              c.setAttribute("data-time", iso(e[6]));
              c.setAttribute("data-distance", e[7] === null ? "" : String(e[7]));
              if (e[8] !== null) { c.setAttribute("data-crossed-at", iso(e[8])); }
              if (e[9] !== null) { c.setAttribute("data-rule", data.rules[e[9]]); }
              parts[e[0]].appendChild(c);
            });
            data.profiles.forEach(function (p, i) { if (layers[p]) { layers[p].appendChild(parts[i]); } });
          }

        """#

    /// Draws device `d`'s timeline into `#timeline`: a row per region and profile it has events (or
    /// Monte Carlo bands) with, inside periods as bars (enter to exit, or to the end), events as ticks,
    /// bands from p5 to p95, on one axis from its first fix (or event) to its last. Each shape has a title.
    static let timeline = #"""
          function drawTimeline(d) {
            var box = document.getElementById("timeline");
            box.textContent = "";
            if (d < 0) { return; }
            var events = data.events.filter(function (e) { return e[3] === d; });
            var bands = data.bands.filter(function (b) { return b[1] === d; });
            var times = [];
            events.forEach(function (e) { times.push(e[6]); });
            bands.forEach(function (b) { times.push(b[5], b[7]); });
            if (data.spans[d]) { times.push(data.spans[d][0], data.spans[d][1]); }
            var figure = document.createElement("figure"), caption = document.createElement("figcaption");
            figure.className = "device-timeline"; figure.setAttribute("data-device", data.devices[d]);
            caption.textContent = data.devices[d]; figure.appendChild(caption); box.appendChild(figure);
            if (!times.length) { caption.textContent += ": no fixes and no events"; return; }
            var t0 = times.reduce(function (a, b) { return Math.min(a, b); }), t1 = times.reduce(function (a, b) { return Math.max(a, b); });
            if (t1 === t0) { t1 = t0 + 1000; }
            var left = 170, width = 430, row = 20, top = 24;
            function x(t) { return left + (t - t0) / (t1 - t0) * width; }
            var rows = [];
            data.regions.forEach(function (region, r) {
              data.profiles.forEach(function (profile, p) {
                var here = events.filter(function (e) { return e[4] === r && e[0] === p; });
                var spread = bands.filter(function (b) { return b[2] === r && b[0] === p; });
                if (here.length || spread.length) { rows.push({ label: region + " \u00b7 " + profile, events: here, bands: spread, profile: profile }); }
              });
            });
            var height = top + rows.length * row + 16, svg = document.createElementNS(SVG, "svg");
            svg.setAttribute("viewBox", "0 0 640 " + height); svg.setAttribute("width", "100%");
            function add(name, attributes, title, text) {
              var el = document.createElementNS(SVG, name);
              Object.keys(attributes).forEach(function (k) { el.setAttribute(k, String(attributes[k])); });
              if (title) { var t = document.createElementNS(SVG, "title"); t.textContent = title; el.appendChild(t); }
              if (text) { el.textContent = text; }
              svg.appendChild(el); return el;
            }
            for (var i = 0; i <= 4; i++) {
              var t = t0 + (t1 - t0) * i / 4;
              add("line", { "class": "axis", x1: x(t), x2: x(t), y1: 14, y2: height });
              add("text", { "class": "axis-label", x: x(t), y: 11 }, null, clock(t));
            }
            rows.forEach(function (entry, i) {
              var y = top + i * row;
              add("text", { "class": "row-label", x: 0, y: y + 12 }, null, entry.label);
              entry.bands.forEach(function (b) {
                add("rect", { "class": "band", x: x(b[5]), y: y, width: Math.max(1.5, x(b[7]) - x(b[5])), height: 14 },
                    data.kinds[b[3]] + (b[4] > 1 ? " (" + b[4] + ")" : "") + ": p5 " + clock(b[5]) + ", p50 " + clock(b[6]) + ", p95 " + clock(b[7]) + ", in " + Math.round(b[8] * 1000) / 10 + " % of runs");
              });
              var since = null;
              function bar(from, to, title) { add("rect", { "class": "inside", x: x(from), y: y, width: Math.max(1.5, x(to) - x(from)), height: 14 }, title); }
              entry.events.forEach(function (e) {
                var kind = data.kinds[e[5]];
                if (kind === "enter" && since === null) { since = e[6]; }
                if (kind === "exit" && since !== null) { bar(since, e[6], "inside " + clock(since) + "\u2013" + clock(e[6])); since = null; }
              });
              if (since !== null) { bar(since, t1, "inside from " + clock(since) + ", still at the end"); }
              entry.events.forEach(function (e) {
                var kind = data.kinds[e[5]];
                add("rect", { "class": "tick kind-" + kind, x: x(e[6]) - 1.25, y: y, width: 2.5, height: 14 },
                    kind + (e[9] !== null ? " \u201c" + data.rules[e[9]] + "\u201d" : "") + " at " + clock(e[6]) + " (" + entry.profile + ")");
              });
            });
            figure.appendChild(svg);
          }

        """#
}
