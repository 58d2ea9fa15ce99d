/// The header fields of a request, assembled from layers in the documented order of precedence:
/// library defaults < endpoint < body content type < interceptors < authentication. A later
/// layer that names a field replaces every earlier field of that name; fields only one layer
/// names keep their order and repeats.
public struct HeaderLayers: Sendable {
    /// The layers, lowest precedence first.
    public enum Layer: Int, Sendable, CaseIterable, Comparable {
        /// The client's defaults (`User-Agent`, `Accept`).
        case defaults
        /// The endpoint's or request builder's own fields.
        case endpoint
        /// The body's `Content-Type`.
        case bodyContentType
        /// Fields set by interceptors.
        case interceptors
        /// `Authorization` from the token source.
        case authentication

        public static func < (lhs: Layer, rhs: Layer) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Each layer's fields, by `Layer.rawValue`.
    private var layers = [HTTPHeaders](repeating: HTTPHeaders(), count: Layer.allCases.count)

    /// No fields.
    public init() {}

    /// Sets the fields of one layer, replacing what that layer held.
    public mutating func set(_ layer: Layer, _ headers: HTTPHeaders) {
        layers[layer.rawValue] = headers
    }

    /// The merged fields.
    public var merged: HTTPHeaders {
        var result = HTTPHeaders()
        for headers in layers where headers.count > 0 { result.overlay(headers) }
        return result
    }
}
