/// The page's script, written for this page and nothing else (no library): pan and zoom the map (drag,
/// wheel, the "fit" button), a scale bar in metres, profile layers switched on and off, a device picker
/// (the map and the timeline show one device, or every device), a tooltip for each event marker, and an
/// XYZ tile layer when the report was made with `--tiles`. The event markers and the timeline are made
/// from the page's data (`ReportData`) by `markers` and `timeline` (ReportScript+Data.swift).
enum ReportScript {
    static let javascript = #"""
        (function () {
          "use strict";
          var settings = JSON.parse(document.getElementById("report-settings").textContent);
          var data = JSON.parse(document.getElementById("report-data").textContent);
          var SVG = "http://www.w3.org/2000/svg";
          function iso(ms) { return new Date(ms).toISOString(); }
          // Times for people: UTC, or with --timezone on that zone's clocks, by the browser's own tz data.
          var zoned = settings.timeZone ? new Intl.DateTimeFormat("en-CA", { timeZone: settings.timeZone, hourCycle: "h23",
            year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }) : null;
          function shown(ms) {
            if (!zoned) { return iso(ms); }
            var p = {};
            zoned.formatToParts(new Date(ms)).forEach(function (part) { p[part.type] = part.value; });
            return p.year + "-" + p.month + "-" + p.day + "T" + p.hour + ":" + p.minute + ":" + p.second + " " + settings.timeZone;
          }
          function clock(ms) { var text = shown(ms); return text.slice(0, 10) === shown(settings.day).slice(0, 10) ? text.slice(11, 19) : text; }
        """# + markers + timeline + #"""
              makeMarkers();
              var map = document.getElementById("map");
              var tip = document.getElementById("tooltip");
              var home = map.getAttribute("data-home").split(" ").map(Number);
              var view = home.slice();

              function unitsPerPixel() {
                var box = map.getBoundingClientRect();
                return Math.max(view[2] / Math.max(1, box.width), view[3] / Math.max(1, box.height));
              }
              function setView(v) { view = v; map.setAttribute("viewBox", v.join(" ")); redraw(); }
              // Markers keep their size on screen: their radius is a number of pixels in map units.
              function redraw() { map.style.setProperty("--u", String(unitsPerPixel())); drawScale(); drawTiles(); }

              // Scale bar: a round length of about 100 pixels, in metres on the ground at the map's centre.
              function drawScale() {
                var metresPerPixel = unitsPerPixel() * settings.metresPerUnit;
                var target = metresPerPixel * 100, step = Math.pow(10, Math.floor(Math.log10(target)));
                var length = [1, 2, 5, 10].map(function (k) { return k * step; }).filter(function (l) { return l <= target; }).pop() || step;
                var bar = document.querySelector("#scale-bar rect"), text = document.querySelector("#scale-bar text");
                bar.setAttribute("width", String(Math.max(1, length / metresPerPixel)));
                text.textContent = length >= 1000 ? (length / 1000) + " km" : length + " m";
              }

              // An XYZ tile layer under the regions, when one was asked for.
              function drawTiles() {
                if (!settings.tiles) { return; }
                var group = document.getElementById("tiles"), world = 2 * Math.PI * 6371008.8;
                var zoom = Math.max(0, Math.min(19, Math.round(Math.log2(world / (unitsPerPixel() * 256)))));
                var size = world / Math.pow(2, zoom), half = world / 2;
                var x0 = Math.floor((view[0] + settings.originX + half) / size), x1 = Math.floor((view[0] + view[2] + settings.originX + half) / size);
                var y0 = Math.floor((half - (settings.originY - view[1])) / size), y1 = Math.floor((half - (settings.originY - view[1] - view[3])) / size);
                while (group.firstChild) { group.removeChild(group.firstChild); }
                if ((x1 - x0 + 1) * (y1 - y0 + 1) > 80) { return; }
                for (var x = x0; x <= x1; x++) {
                  for (var y = Math.max(0, y0); y <= Math.min(Math.pow(2, zoom) - 1, y1); y++) {
                    var n = Math.pow(2, zoom), wrapped = ((x % n) + n) % n;
                    var image = document.createElementNS("http://www.w3.org/2000/svg", "image");
                    image.setAttribute("href", settings.tiles.replace("{z}", zoom).replace("{x}", wrapped).replace("{y}", y));
                    image.setAttribute("x", String(x * size - half - settings.originX));
                    image.setAttribute("y", String(settings.originY - (half - y * size)));
                    image.setAttribute("width", String(size)); image.setAttribute("height", String(size));
                    group.appendChild(image);
                  }
                }
              }

              // Zoom around the pointer with the wheel; pan by dragging.
              map.addEventListener("wheel", function (e) {
                e.preventDefault();
                var box = map.getBoundingClientRect(), k = e.deltaY < 0 ? 0.8 : 1.25;
                var fx = (e.clientX - box.left) / box.width, fy = (e.clientY - box.top) / box.height;
                setView([view[0] + view[2] * (1 - k) * fx, view[1] + view[3] * (1 - k) * fy, view[2] * k, view[3] * k]);
              }, { passive: false });
              var drag = null;
              map.addEventListener("pointerdown", function (e) { drag = { x: e.clientX, y: e.clientY }; map.classList.add("dragging"); });
              window.addEventListener("pointerup", function () { drag = null; map.classList.remove("dragging"); });
              map.addEventListener("pointermove", function (e) {
                if (!drag || e.buttons === 0) { return; }
                var u = unitsPerPixel();
                setView([view[0] - (e.clientX - drag.x) * u, view[1] - (e.clientY - drag.y) * u, view[2], view[3]]);
                drag = { x: e.clientX, y: e.clientY };
              });
              // The fit button frames the picked device's track, else the region last clicked, else everything.
              var pickedRegion = null;
              map.addEventListener("click", function (e) {
                var t = e.target;
                if (!t.classList || !t.classList.contains("region")) { return; }
                Array.prototype.forEach.call(document.querySelectorAll(".region.picked"), function (r) { r.classList.remove("picked"); });
                pickedRegion = pickedRegion === t ? null : t;
                if (pickedRegion) { pickedRegion.classList.add("picked"); }
              });
              function frame(elements) {
                var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
                elements.forEach(function (el) {
                  var b = el.getBBox();
                  x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y); x1 = Math.max(x1, b.x + b.width); y1 = Math.max(y1, b.y + b.height);
                });
                if (!isFinite(x0)) { return false; }
                // A margin of a tenth of the larger side, and at least 30 pixels of the whole view's scale.
                var pad = Math.max((x1 - x0), (y1 - y0)) * 0.1 + 30 * Math.max(home[2], home[3]) / 1000;
                setView([x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad]);
                return true;
              }
              document.getElementById("reset-view").addEventListener("click", function () {
                var choice = document.getElementById("device-picker");
                var device = choice.hidden ? "" : choice.value;  // one device: fit frames everything
                var tracks = Array.prototype.filter.call(document.querySelectorAll(".track"), function (t) {
                  return device !== "" && t.getAttribute("data-device") === device;
                });
                if (frame(tracks)) { return; }
                if (pickedRegion && frame([pickedRegion])) { return; }
                setView(home.slice());
              });

              // The tooltip of an event marker.
              map.addEventListener("mouseover", function (e) {
                var t = e.target;
                if (!t.classList || !t.classList.contains("event")) { return; }
                var d = t.dataset, lines = [d.kind + (d.rule ? " \u201c" + d.rule + "\u201d" : "") + " \u00b7 " + d.profile,
                  "time " + d.time + (zoned ? " (" + shown(Date.parse(d.time)) + ")" : ""), "device " + d.device, "region " + d.region, "distance " + d.distance + " m"];
                if (d.crossedAt) { lines.push("crossedAt " + d.crossedAt); }
                tip.textContent = lines.join("\n");
                tip.style.display = "block";
                tip.style.left = (e.clientX + 14) + "px"; tip.style.top = (e.clientY + 14) + "px";
              });
              map.addEventListener("mouseout", function (e) {
                if (e.target.classList && e.target.classList.contains("event")) { tip.style.display = "none"; }
              });

              // Profile layers on and off.
              Array.prototype.forEach.call(document.querySelectorAll(".layer-toggle"), function (box) {
                box.addEventListener("change", function () {
                  Array.prototype.forEach.call(document.querySelectorAll(".layer"), function (layer) {
                    if (layer.getAttribute("data-profile") === box.getAttribute("data-profile")) { layer.style.display = box.checked ? "" : "none"; }
                  });
                });
              });

              // One device, or every device.
              var picker = document.getElementById("device-picker");
              function pick() {
                var chosen = picker.value;
                Array.prototype.forEach.call(document.querySelectorAll(".track, .event"), function (el) {
                  el.classList.toggle("dimmed", chosen !== "" && el.getAttribute("data-device") !== chosen);
                });
                drawTimeline(chosen === "" ? 0 : data.devices.indexOf(chosen));
              }
              picker.addEventListener("change", pick);
              drawTimeline(data.devices.length ? 0 : -1);

              redraw();
              window.addEventListener("resize", redraw);
            })();
            """#
}
