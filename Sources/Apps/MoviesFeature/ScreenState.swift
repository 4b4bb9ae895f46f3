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
