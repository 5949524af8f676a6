/// The page, as a Mustache template (swift-mustache escapes every `{{value}}` for HTML, attributes
/// included; `{{{settingsJSON}}}` and `{{{dataJSON}}}` are the unescaped values: JSON made by
/// `ReportBuilder` and `ReportData`, strings escaped for JSON and `<` as `\u003c`, so that no text can
/// end the script element). Self-contained: the style and the script are inline, nothing is fetched unless `--tiles`.
enum ReportTemplate {
    static let page = """
        \(ReportStyle.head(title: "{{title}} · Perimeter report", style: ReportStyle.css, images: "data: https: http:"))
        <body data-regions="{{regionCount}}" data-tracks="{{trackCount}}" data-events="{{eventCount}}">
        <header>
          <h1>{{title}}</h1>
          <p class="subtitle">{{subtitle}}</p>
        </header>
        <main>
        <section id="map-panel">
          <div class="controls">
            {{#layers}}<label class="profile-{{colourIndex}}"><input type="checkbox" class="layer-toggle" data-profile="{{profile}}" checked> {{profile}} ({{count}})</label>
            {{/layers}}
            {{#manyDevices}}<label>device <select id="device-picker"><option value="">every device</option>{{#devices}}<option value="{{id}}">{{id}}</option>{{/devices}}</select></label>{{/manyDevices}}
            {{^manyDevices}}<select id="device-picker" hidden>{{#devices}}<option value="{{id}}">{{id}}</option>{{/devices}}</select>{{/manyDevices}}
            <button type="button" id="reset-view" title="Frame the picked device's track, else the clicked region, else everything">fit</button>
          </div>
          <div id="map-frame">
            <svg id="map" viewBox="{{viewBox}}" data-home="{{viewBox}}" xmlns="http://www.w3.org/2000/svg">
              <g id="tiles"></g>
              <g id="regions">{{#regions}}
                <path class="region" data-region="{{id}}" d="{{path}}"><title>{{id}} ({{label}})</title></path>{{/regions}}
              </g>
              <g id="tracks">{{#tracks}}
                <path class="track" data-device="{{device}}" d="{{path}}"><title>{{device}}</title></path>{{/tracks}}
              </g>
              {{#layers}}<g class="layer profile-{{colourIndex}}" data-profile="{{profile}}"></g>
              {{/layers}}
            </svg>
            <svg id="scale-overlay" width="180" height="34" xmlns="http://www.w3.org/2000/svg"><g id="scale-bar"><rect x="10" y="18" width="100" height="5"></rect><text x="10" y="13">scale</text></g></svg>
            <div id="legend"><span class="kind-enter">enter</span> <span class="kind-exit">exit</span> <span class="kind-dwell">dwell</span> <span class="kind-visit">visit</span></div>
          </div>
          <div id="tooltip" role="tooltip"></div>
          {{#notes}}<p class="note">{{.}}</p>{{/notes}}
        </section>
        <section id="side">
          {{#hasOutcomes}}
          <section id="summary-card" class="card" aria-labelledby="summary-heading">
          <h2 id="summary-heading">Devices that got each outcome</h2>
          <ul>{{#summary}}
            <li><strong>{{outcome}}</strong>: {{truth}}; {{profiles}}</li>{{/summary}}
          </ul>
          {{#summaryMore}}<p class="note">{{.}}</p>{{/summaryMore}}
          </section>
          {{/hasOutcomes}}
          <h2>Timeline</h2>
          <div id="timeline"><p class="note">The timeline is drawn by the page's script.</p></div>
          {{#monteCarlo}}<p class="note">{{.}}</p>{{/monteCarlo}}
          {{#hasCompare}}
          <h2>Against {{reference}}</h2>
          <table id="compare">
            <thead><tr><th>profile</th><th>kind</th><th>paired</th><th>missed</th><th>spurious</th><th>median</th><th>p90</th><th>max</th><th>at median</th><th>at p90</th></tr></thead>
            <tbody>{{#compare}}
              <tr{{#first}} class="first"{{/first}}><td>{{profile}}</td><td>{{kind}}</td><td>{{paired}}</td><td>{{missed}}</td><td>{{spurious}}</td><td>{{median}}</td><td>{{p90}}</td><td>{{max}}</td><td>{{distanceMedian}}</td><td>{{distanceP90}}</td></tr>{{/compare}}
            </tbody>
          </table>
          <p class="note">Delays are the profile's time minus {{reference}}'s on the exact track, events paired one to one within 10 min (perimeter compare); "at" is the true distance from the boundary when the profile's events fired (negative inside).</p>
          {{/hasCompare}}
          {{#hasOutcomes}}
          <section id="outcomes-panel" aria-labelledby="outcomes-heading">
          <h2 id="outcomes-heading">Outcomes</h2>
          <table id="outcomes">
            <caption>{{outcomesCaption}}</caption>
            <thead><tr><th>outcome</th><th>truth</th><th>profile</th><th>p5</th><th>median</th><th>p95</th><th>mean</th><th>false+ median</th><th>false+ mean</th><th>false− median</th><th>false− mean</th></tr></thead>
            <tbody>{{#outcomes}}
              <tr{{#first}} class="first"{{/first}}><td>{{outcome}}</td><td>{{truth}}</td><td>{{profile}}</td><td>{{p5}}</td><td>{{median}}</td><td>{{p95}}</td><td>{{mean}}</td><td>{{fpMedian}}</td><td>{{fpMean}}</td><td>{{fnMedian}}</td><td>{{fnMean}}</td></tr>{{/outcomes}}
            </tbody>
          </table>
          <details><summary>The table as text</summary><pre id="outcomes-text">{{outcomesText}}</pre></details>
          <p class="note">Devices that got each dwell rule, enter and visit (perimeter outcomes): in the truth ({{reference}} on the exact track), and under each profile per run; false+ got it when the truth did not, false− did not when the truth did. Percentiles by nearest rank.</p>
          </section>
          {{/hasOutcomes}}
        </section>
        </main>
        <footer>Made by Perimeter. Everything on this page is in this file; it makes no request unless a tile layer was asked for.</footer>
        <script type="application/json" id="report-settings">{{{settingsJSON}}}</script>
        <script type="application/json" id="report-data">{{{dataJSON}}}</script>
        <script>\(ReportScript.javascript)</script>
        </body>
        </html>

        """
}
