/// The calibration page (`CalibrationPage`), as a Mustache template. Every value is escaped by
/// `XMLEscaping` when the model is made, so every tag is `{{{…}}}`; the charts are SVG made by
/// `CalibrationChart`. Self-contained: the style and the one small script (showing or hiding the base
/// profile's curves) are inline, nothing is fetched. Printable: the control is hidden in print.
enum CalibrationTemplate {
    static let page = """
        \(ReportStyle.head(title: "{{{title}}} · Perimeter calibration", style: ReportStyle.css + style))
        <body class="calibration">
        <header>
          <h1>Calibration: {{{title}}}</h1>
          <p class="subtitle">{{{subtitle}}}</p>
          <p class="subtitle"><code id="command-line">{{{commandLine}}}</code></p>
        </header>
        <main>
        <section id="parameters">
          <h2>Parameters</h2>
          <table>
            <caption>The fitted values with their 90 % bootstrap intervals, against the base profile.</caption>
            <thead><tr><th scope="col">parameter</th><th scope="col">unit</th><th scope="col">value</th><th scope="col">90 % interval</th><th scope="col">base</th><th scope="col">change</th></tr></thead>
            <tbody>{{#parameters}}
              <tr><th scope="row">{{{name}}}</th><td>{{{unit}}}</td><td>{{{value}}}</td><td>{{{low}}} – {{{high}}}</td><td>{{{base}}}</td><td>{{{change}}}</td></tr>{{/parameters}}
            </tbody>
          </table>
          <p class="note">Crossings: {{{fitCrossings}}} in the fit, {{{holdoutCrossings}}} held out. Seed {{{seed}}}, {{{runs}}} simulated runs a candidate (run r with the seed S + r).</p>
          <p class="controls"><label><input type="checkbox" id="show-base" checked> show the base profile's curves</label></p>
        </section>
        {{#kinds}}
        <section class="kind" id="kind-{{{kind}}}">
          <h2>{{{kind}}} crossings</h2>
          <table class="detection">
            <caption>Detection: the share of true {{{kind}}} crossings reported, and spurious {{{kind}}} events per crossing.</caption>
            <thead><tr><th scope="col">side</th><th scope="col">crossings</th><th scope="col">detection rate</th><th scope="col">spurious per crossing</th></tr></thead>
            <tbody>{{#rows}}
              <tr><th scope="row">{{{side}}}</th><td>{{{crossings}}}</td><td>{{{detection}}}</td><td>{{{spurious}}}</td></tr>{{/rows}}
            </tbody>
          </table>
          <div class="charts">{{#charts}}
            <figure>
              {{{svg}}}
              <figcaption>{{{caption}}}<br><span class="key observed">observed</span> <span class="key fitted">fitted</span> <span class="key base">base</span></figcaption>
              <table class="quantiles">
                <caption>{{{caption}}}, percentiles of each side ({{{unit}}})</caption>
                <thead><tr><th scope="col">side</th><th scope="col">reported per run</th><th scope="col">p10</th><th scope="col">median</th><th scope="col">p90</th></tr></thead>
                <tbody>{{#quantiles}}<tr><th scope="row">{{{side}}}</th><td>{{{values}}}</td><td>{{{p10}}}</td><td>{{{median}}}</td><td>{{{p90}}}</td></tr>{{/quantiles}}</tbody>
              </table>
            </figure>{{/charts}}
          </div>
        </section>
        {{/kinds}}
        <section id="discrepancy">
          <h2>Discrepancy at the optimum</h2>
          <table>
            <caption>The terms the fit minimised (docs/CALIBRATE.md "Discrepancy"); each is about 1 for a difference of its sampling noise. Total {{{discrepancyTotal}}}.</caption>
            <thead><tr><th scope="col">kind</th><th scope="col">detection</th><th scope="col">delay</th><th scope="col">distance</th><th scope="col">lag</th><th scope="col">spurious</th><th scope="col">total</th></tr></thead>
            <tbody>{{#discrepancy}}
              <tr><th scope="row">{{{kind}}}</th><td>{{{detection}}}</td><td>{{{delay}}}</td><td>{{{distance}}}</td><td>{{{lag}}}</td><td>{{{spurious}}}</td><td>{{{total}}}</td></tr>{{/discrepancy}}
            </tbody>
          </table>
        </section>
        {{#hasColumns}}
        <section id="free-columns">
          <h2>The field log's free columns</h2>
          {{#columns}}
          <table class="column">
            <caption>{{{column}}}</caption>
            <thead><tr><th scope="col">value</th><th scope="col">events</th></tr></thead>
            <tbody>{{#counts}}<tr><th scope="row">{{{value}}}</th><td>{{{events}}}</td></tr>{{/counts}}</tbody>
          </table>
          {{/columns}}
        </section>
        {{/hasColumns}}
        </main>
        <footer>Made by Perimeter. Everything on this page is in this file; it makes no request.</footer>
        <script>\(script)</script>
        </body>
        </html>

        """

    static let style = """
        body.calibration main { display: block; max-width: 1100px; }
        caption { text-align: left; font-size: 12px; color: #5f6b73; padding: 4px 0; }
        th[scope="row"] { text-align: left; font-weight: normal; }
        code { font-size: 12px; word-break: break-all; }
        .charts { display: flex; flex-wrap: wrap; gap: 16px; }
        figure { margin: 8px 0; flex: 1 1 420px; max-width: 520px; }
        .chart { width: 100%; height: auto; background: #fff; border: 1px solid #e3e3e3; }
        .chart .axis { fill: none; stroke: #999; } .chart .tick { font-size: 11px; fill: #5f6b73; }
        .curve { fill: none; stroke-width: 2px; } .curve.observed { stroke: #111; } .curve.fitted { stroke: #2f6fba; }
        .curve.base { stroke: #e07b00; stroke-dasharray: 5 3; }
        .key { font-weight: normal; border-left: 14px solid; margin-right: 8px; padding-left: 4px; }
        .key.observed { border-color: #111; } .key.fitted { border-color: #2f6fba; } .key.base { border-color: #e07b00; }
        body.hide-base .curve.base { display: none; }
        table.column { width: auto; min-width: 240px; margin-bottom: 8px; }
        @media print { .controls { display: none; } .charts { display: block; } figure { break-inside: avoid; } }
        """

    static let script = """
        (function () {
          "use strict";
          var box = document.getElementById("show-base");
          box.addEventListener("change", function () { document.body.classList.toggle("hide-base", !box.checked); });
        })();
        """
}
