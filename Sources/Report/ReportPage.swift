import Mustache
import ScenarioFormat

/// `perimeter report`: the scenario's picture as one self-contained HTML page (map, timeline, the
/// comparison with `ideal`, Monte Carlo bands), rendered from `ReportTemplate` with swift-mustache.
///
/// ```swift
/// let html = try ReportPage(ReportBuilder(ScenarioRun(loading: path), profiles: [.ios, .android, .ideal])).html()
/// ```
public struct ReportPage: Sendable {
    public let builder: ReportBuilder

    public init(_ builder: ReportBuilder) { self.builder = builder }

    /// The whole page. Deterministic: the same scenario gives the same bytes. Throws what the builder's
    /// batches refuse (`ReportBuilder.init` refused it already).
    public func html(threads: Int = 1) throws(ScenarioErrors) -> String {
        let template: MustacheTemplate
        do {
            template = try MustacheTemplate(string: ReportTemplate.page)
        } catch {
            preconditionFailure("the report template does not parse: \(error)")
        }
        return template.render(try builder.build(threads: threads))
    }
}
