public import Foundation
public import Networking

/// Loads images through an `HTTPClient`, keeping them in memory (least recently used first out) and on disk.
///
/// Concurrent loads of one URL share one download. Cancelling a load ends that load only; the download stops
/// when every load waiting for it was cancelled. A failed download or an answer that is not an image is an
/// error and is not cached.
public actor ImageCache {
    private let client: any HTTPClient
    private let disk: DiskImageStore?
    private var memory: LRUCache<URL, Data>
    private var downloads: [URL: Download] = [:]
    private var nextID: UInt64 = 0

    /// One download and the loads waiting for it.
    private struct Download {
        var id: UInt64
        var task: Task<Void, Never>?
        var waiters: [UInt64: CheckedContinuation<Result<Data, ImageCacheError>, Never>] = [:]
    }

    /// The default disk location: `ImageCache` in the user's caches directory.
    public static var defaultDirectory: URL {
        let caches =
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return caches.appendingPathComponent("CatalogKit/ImageCache", isDirectory: true)
    }

    /// - Parameters:
    ///   - client: downloads the images.
    ///   - directory: where the disk cache lives; nil for memory only.
    ///   - memoryLimit: the most bytes kept in memory.
    ///   - countLimit: the most images kept in memory.
    public init(
        client: any HTTPClient, directory: URL? = ImageCache.defaultDirectory, memoryLimit: Int = 50 << 20,
        countLimit: Int = 500
    ) {
        self.client = client
        disk = directory.map(DiskImageStore.init)
        memory = LRUCache(costLimit: memoryLimit, countLimit: countLimit)
    }

    /// The image at `url`, from memory, disk or the network.
    /// - Throws: `ImageCacheError` when the download fails, the answer is not an image, or this load is cancelled.
    public func image(for url: URL) async throws(ImageCacheError) -> Data {
        if let cached = cachedImage(for: url) { return cached }
        nextID += 1
        let waiter = nextID
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                wait(for: url, as: waiter, continuation)
            }
        } onCancel: {
            Task { await self.cancel(waiter, of: url) }
        }
        return try result.get()
    }

    /// The image at `url` if it is in memory or on disk, without going to the network.
    public func cachedImage(for url: URL) -> Data? {
        if let data = memory.value(for: url) { return data }
        guard let data = disk?.read(url), ImageFormat(sniffing: data) != nil else { return nil }
        memory.insert(data, for: url, cost: data.count)
        return data
    }

    /// How many downloads are running now.
    public var downloadsInFlight: Int { downloads.count }

    /// Empties the memory and disk caches.
    public func removeAll() {
        memory.removeAll()
        disk?.removeAll()
    }

    // MARK: Downloads

    private func wait(
        for url: URL, as waiter: UInt64, _ continuation: CheckedContinuation<Result<Data, ImageCacheError>, Never>
    ) {
        if Task.isCancelled {
            continuation.resume(returning: .failure(.cancelled))
            return
        }
        if downloads[url] == nil {
            nextID += 1
            let id = nextID
            downloads[url] = Download(id: id)
            downloads[url]?.task = Task { [client] in
                let result = await Self.download(url, with: client)
                self.finish(url, download: id, with: result)
            }
        }
        downloads[url]?.waiters[waiter] = continuation
    }

    private func cancel(_ waiter: UInt64, of url: URL) {
        guard let continuation = downloads[url]?.waiters.removeValue(forKey: waiter) else { return }
        continuation.resume(returning: .failure(.cancelled))
        if downloads[url]?.waiters.isEmpty == true {
            downloads[url]?.task?.cancel()
            downloads[url] = nil
        }
    }

    private func finish(_ url: URL, download id: UInt64, with result: Result<Data, ImageCacheError>) {
        guard let download = downloads[url], download.id == id else { return }
        downloads[url] = nil
        if case .success(let data) = result {
            memory.insert(data, for: url, cost: data.count)
            disk?.write(data, for: url)
        }
        for waiter in download.waiters.values { waiter.resume(returning: result) }
    }

    private static func download(_ url: URL, with client: any HTTPClient) async -> Result<Data, ImageCacheError> {
        do {
            let response = try await client.send(HTTPRequest(url: url))
            guard (200..<300).contains(response.status) else {
                return .failure(.network(.status(response.status, body: response.body)))
            }
            guard !response.body.isEmpty else { return .failure(.network(.emptyBody)) }
            guard ImageFormat(sniffing: response.body) != nil else {
                return .failure(.notAnImage(url, contentType: response.header("Content-Type")))
            }
            return .success(response.body)
        } catch {
            return .failure(error == .cancelled ? .cancelled : .network(error))
        }
    }
}
