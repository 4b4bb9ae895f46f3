/// Which screen the movie app shows.
public enum Screen: String, Sendable, Equatable {
    case list
    case details
}
