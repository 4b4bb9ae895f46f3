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
