/// The control page served at `GET /__stub/` to a browser: one HTML page, its script and its style, embedded in
/// the binary (no CDN, works offline) from the files in `Page/`. It uses only the admin API, shows every
/// value from a request as text (`textContent`, never markup), and its Content-Security-Policy allows only its own
/// script and style, so a request that carries markup cannot run anything even if a value were shown wrongly.
import HTTPEngine
import HTTPMessages
import StubCore

enum ControlPage {
    /// One part of the page, never cached, under the page's policy.
    static func response(_ bytes: [UInt8], type: String) -> Response {
        Response(
            status: .ok,
            headers: HTTPHeaders([
                ("Content-Type", type), ("Cache-Control", "no-store"),
                ("Content-Security-Policy", contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
            ]),
            body: bytes)
    }

    /// Served with every part of the page.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    // The page's files, `Page/`, embedded by SwiftPM at build time (`resources: [.embedInCode(...)]`):
    // edited, linted and highlighted as what they are, and served with no Bundle and no Foundation.
    static var html: [UInt8] { PackageResources.control_html }
    static var script: [UInt8] { PackageResources.control_js }
    static var css: [UInt8] { PackageResources.control_css }
    /// The page's icon, so that the browser does not ask for `/favicon.ico` (which the journal would record).
    static var icon: [UInt8] { PackageResources.icon_svg }
}
