#!/usr/bin/env python3
"""Opens a report in Debian's headless Chromium, offline, and says what a person would see, as one JSON
object on standard output:

    python3 Scripts/browser-check.py REPORT.html [--screenshot OUT.png] [--timeout 30]

It drives the browser through the DevTools protocol over --remote-debugging-pipe (JSON messages ended by
NUL on file descriptors 3 and 4; the standard library only), with the network off, and reports:
counts of `.region`, `.track` and `.event` elements (and events per profile); what the tooltip says once
the mouse is over the first event marker; every request that tried to leave the page; every console
error and uncaught exception; first paint, first contentful paint and load times (ms); the DOM's node
count; and, with --screenshot, a PNG of the page with the number of distinct colours in it (1: blank).
Exit 0 when the page loaded; 2 with a sentence on standard error otherwise (no chromium, no load).
"""
import argparse, base64, fcntl, json, os, select, shutil, signal, struct, subprocess, sys, tempfile, time, zlib


class Browser:
    def __init__(self, timeout):
        binary = shutil.which("chromium") or shutil.which("chromium-browser")
        if not binary:
            raise SystemExit("browser-check: chromium is not installed: apt-get install -y chromium")
        self.profile = tempfile.mkdtemp(prefix="browser-check-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        # The browser reads commands on fd 3 and writes answers on fd 4 (kept open by pass_fds, as the
        # child closes the others after preexec_fn): the child's ends are first moved
        # above 10, so that putting them in place cannot overwrite one with the other.
        child_in, child_out = (fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_browser_r, from_browser_w))
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.process = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--disable-background-networking", "--disable-sync", "--metrics-recording-only",
             "--mute-audio", "--hide-scrollbars", "--window-size=1280,800", "--user-data-dir=" + self.profile,
             "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # Its singleton socket's folder goes in the profile, removed with it (killed, it cannot remove it).
            env=dict(os.environ, TMPDIR=self.profile),
            start_new_session=True, pass_fds=(3, 4), preexec_fn=lambda: (os.dup2(child_in, 3), os.dup2(child_out, 4)))
        os.close(child_in)
        os.close(child_out)
        self.deadline = time.monotonic() + timeout
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def close(self):
        """Kills the browser and every process it started (its own session), and removes its profile."""
        try:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait(timeout=10)
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)

    def _read(self):
        while b"\0" not in self.buffer:
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_browser], [], [], left)[0]:
                raise TimeoutError("the browser did not answer in time")
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, session=None, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError("%s: %s" % (method, answer["error"].get("message")))
                return answer.get("result", {})
            self.events.append(answer)

    def wait_for(self, method):
        while True:
            for i, event in enumerate(self.events):
                if event.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self._read())


# A report's fit button (after the screenshot): the last device picked, then fit, frames its track (the
# view holds the track's box, and is smaller than everything); a region clicked with every device shown,
# then fit, frames the region; unpicked, fit shows everything again. Null for a page without the button.
FIT_CHECK = """(() => {
  const picker = document.getElementById('device-picker'), map = document.getElementById('map');
  const fit = document.getElementById('reset-view');
  if (!picker || !fit || !map) { return JSON.stringify(null); }
  const home = map.getAttribute('data-home').split(' ').map(Number);
  const holds = (b) => { const v = map.viewBox.baseVal;
    return v.x <= b.x && v.y <= b.y && v.x + v.width >= b.x + b.width && v.y + v.height >= b.y + b.height; };
  const share = () => { const v = map.viewBox.baseVal; return v.width * v.height / (home[2] * home[3]); };
  // viewBox holds single-precision numbers: the same view to a part in 10^5 of its size.
  const near = (a, b) => Math.abs(a - b) <= 1e-5 * Math.max(home[2], home[3]);
  const isHome = () => { const v = map.viewBox.baseVal;
    return near(v.x, home[0]) && near(v.y, home[1]) && near(v.width, home[2]) && near(v.height, home[3]); };
  const out = {device: null, holdsTrack: null, trackShare: null, region: null, holdsRegion: null, regionShare: null};
  if (!picker.hidden && picker.options.length > 2) {
    const device = picker.options[picker.options.length - 1].value;
    picker.value = device; picker.dispatchEvent(new Event('change')); fit.click();
    const track = Array.from(document.querySelectorAll('.track')).find(e => e.getAttribute('data-device') === device);
    out.device = device; out.holdsTrack = holds(track.getBBox()); out.trackShare = share();
    picker.value = ''; picker.dispatchEvent(new Event('change'));
  }
  const region = document.querySelector('.region');
  if (region) {
    region.dispatchEvent(new MouseEvent('click', {bubbles: true})); fit.click();
    out.region = region.getAttribute('data-region'); out.holdsRegion = holds(region.getBBox()); out.regionShare = share();
    region.dispatchEvent(new MouseEvent('click', {bubbles: true}));
  }
  fit.click(); out.backHome = isHome();
  return JSON.stringify(out);
})()"""


def distinct_colours(png):
    """The number of distinct colours in an 8-bit RGB(A) PNG, undoing its row filters."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, data, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        chunk = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            channels = {2: 3, 6: 4}[colour]
        elif kind == b"IDAT":
            data += chunk
        pos += 12 + length
    raw, stride, previous, colours = zlib.decompress(data), width * channels, bytearray(width * channels), set()
    for y in range(height):
        kind, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = row[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1: row[i] = (row[i] + left) & 255
            elif kind == 2: row[i] = (row[i] + up) & 255
            elif kind == 3: row[i] = (row[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                row[i] = (row[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        if y % 4 == 0:
            for x in range(0, width, 4):
                colours.add(bytes(row[x * channels:x * channels + 3]))
        previous = row
    return len(colours)


PAGE_STATE = """(() => {
  const count = s => document.querySelectorAll(s).length;
  const perProfile = {};
  document.querySelectorAll('.event').forEach(e => { perProfile[e.dataset.profile] = (perProfile[e.dataset.profile] || 0) + 1; });
  const paint = {};
  performance.getEntriesByType('paint').forEach(p => { paint[p.name] = p.startTime; });
  const nav = performance.getEntriesByType('navigation')[0];
  const first = document.querySelector('.event');
  const box = first ? first.getBoundingClientRect() : null;
  return JSON.stringify({regions: count('.region'), tracks: count('.track'), events: count('.event'), eventsByProfile: perProfile,
    firstPaint: paint['first-paint'] || null, firstContentfulPaint: paint['first-contentful-paint'] || null,
    load: nav ? nav.loadEventEnd : null, nodes: count('*'), charts: count('svg.chart'),
    curves: Array.from(document.querySelectorAll('path.curve')).filter(p => p.getTotalLength() > 0).length,
    outcomeRows: count('#outcomes tbody tr'), outcomesVisible: (() => { const t = document.querySelector('#outcomes');
      return t ? t.getBoundingClientRect().height > 0 : false; })(),
    outcomesText: (document.querySelector('#outcomes-text') || {textContent: ''}).textContent,
    summaryLines: Array.from(document.querySelectorAll('#summary-card li')).map(li => li.textContent),
    marker: box ? {x: box.x + box.width / 2, y: box.y + box.height / 2, time: first.dataset.time, kind: first.dataset.kind} : null});
})()"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("report")
    parser.add_argument("--screenshot")
    parser.add_argument("--timeout", type=float, default=30)
    args = parser.parse_args()
    url = "file://" + os.path.abspath(args.report)
    browser = Browser(args.timeout)
    try:
        target = browser.call("Target.createTarget", url="about:blank")["targetId"]
        session = browser.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ["Page", "Runtime", "Log", "Network"]:
            browser.call(domain + ".enable", session)
        browser.call("Network.emulateNetworkConditions", session, offline=True, latency=0, downloadThroughput=0, uploadThroughput=0)
        browser.call("Page.navigate", session, url=url)
        browser.wait_for("Page.loadEventFired")
        # Until the first contentful paint is recorded (at most 5 s), then two more animation frames: the
        # page has painted what its script made.
        browser.call("Runtime.evaluate", session, awaitPromise=True, expression="""new Promise(done => {
            const frames = () => requestAnimationFrame(() => requestAnimationFrame(() => done(1)));
            if (performance.getEntriesByName('first-contentful-paint').length) { frames(); return; }
            new PerformanceObserver(list => { if (list.getEntriesByName('first-contentful-paint').length) { frames(); } })
                .observe({type: 'paint', buffered: true});
            setTimeout(() => done(0), 5000);
        })""")
        state = json.loads(browser.call("Runtime.evaluate", session, expression=PAGE_STATE, returnByValue=True)["result"]["value"])
        tooltip = None
        if state["marker"]:
            m = state["marker"]
            browser.call("Input.dispatchMouseEvent", session, type="mouseMoved", x=m["x"], y=m["y"])
            shown = browser.call("Runtime.evaluate", session, returnByValue=True, expression=
                "JSON.stringify({display: getComputedStyle(document.getElementById('tooltip')).display, text: document.getElementById('tooltip').textContent})")
            tooltip = json.loads(shown["result"]["value"])
        colours = None
        if args.screenshot:
            png = base64.b64decode(browser.call("Page.captureScreenshot", session, format="png")["data"])
            with open(args.screenshot, "wb") as f:
                f.write(png)
            colours = distinct_colours(png)
        fit = None
        if state.get("regions", 0) > 0 or state.get("tracks", 0) > 0:
            fit = json.loads(browser.call("Runtime.evaluate", session, returnByValue=True, expression=FIT_CHECK)["result"]["value"])
        browser.call("Runtime.evaluate", session, expression="1")  # drains the events the page sent meanwhile
        requests, errors = [], []
        for event in browser.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Network.requestWillBeSent":
                target_url = params["request"]["url"]
                if not (target_url == url or target_url.startswith("data:")):
                    requests.append(target_url)
            elif method == "Runtime.exceptionThrown":
                errors.append(params["exceptionDetails"].get("exception", {}).get("description") or params["exceptionDetails"].get("text"))
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                errors.append(" ".join(str(a.get("value", a.get("description"))) for a in params.get("args", [])))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                errors.append(params["entry"].get("text"))
        state.update({"tooltip": tooltip, "requests": requests, "errors": errors, "screenshotColours": colours, "fit": fit})
        del state["marker"]
        print(json.dumps(state, sort_keys=True))
        return 0
    except (TimeoutError, RuntimeError) as problem:
        print("browser-check: %s: %s" % (args.report, problem), file=sys.stderr)
        return 2
    finally:
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
