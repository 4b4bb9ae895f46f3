/// Which screen the movie app shows.
public enum Screen: String, Sendable, Equatable {
    case list
    case details
}

/// Everything the movie screen shows: the single source of truth for the view.
public enum ScreenState: Sendable, Equatable {
    /// Nothing searched yet, or the query was cleared.
    case idle
    /// A search started (`true`) or finished (`false`); the next state follows at once.
    case loading(Bool)
    case displayList([Movie])
    /// The details screen of one movie.
    case displayDetails(Movie)
    /// The search found nothing for `query`.
    case empty(query: String)
    /// A readable message.
    case error(String)
}

/// The inputs of the original app's view model.
@MainActor
public protocol ViewModel {
    /// At launch: shows what was stored, without any network call.
    func setupPersistedData() async
    /// The user searched for `query`.
    func search(query: String) async
    /// The user moved to the list, or to the details of `movieId`.
    func change(state: Screen, movieId: Int?) async
}
