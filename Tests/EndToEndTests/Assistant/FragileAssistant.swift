import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An assistant client as first written in a hurry, for any of the four model APIs: it reads the whole body, splits
/// it on LF, force-casts each `data:` line to the provider's chunk, waits until the stream says the turn finished,
/// then force-decodes the tool call's arguments and runs the tool.
enum FragileAssistant {
    typealias Provider = TurnAssembler.Provider

    static func request(_ provider: Provider) -> URLRequest {
        let gemini = provider == .gemini ? "?alt=sse" : ""
        var request = URLRequest(url: URL(string: "https://api.catalog.test" + provider.path + gemini)!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"model": "catalog-assistant-1", "stream": true}"#.utf8)
        return request
    }

    /// The answer with its tool's result.
    static func answer(_ provider: Provider, _ configuration: URLSessionConfiguration) async throws -> String {
        let (data, _) = try await URLSession(configuration: configuration).data(for: request(provider))
        var text = ""
        var arguments = ""
        var finished = false
        for line in String(decoding: data, as: UTF8.self).components(separatedBy: "\n") where line.hasPrefix("data: ") {
            let payload = line.dropFirst(6)
            if payload == "[DONE]" { break }
            let json = try! JSONSerialization.jsonObject(with: Data(payload.utf8)) as! [String: Any]
            switch provider {
            case .openAIChat:
                let choices = json["choices"] as! [[String: Any]]
                if choices.isEmpty { continue }  // The usage chunk.
                let delta = choices[0]["delta"] as! [String: Any]
                text += delta["content"] as? String ?? ""
                if let calls = delta["tool_calls"] as? [[String: Any]] {
                    arguments += (calls[0]["function"] as! [String: Any])["arguments"] as! String
                }
                if choices[0]["finish_reason"] is String { finished = true }
            case .openAIResponses:
                switch json["type"] as! String {
                case "response.output_text.delta": text += json["delta"] as! String
                case "response.function_call_arguments.delta": arguments += json["delta"] as! String
                case "response.completed": finished = true
                default: break
                }
            case .anthropic:
                switch json["type"] as! String {
                case "content_block_delta":
                    let delta = json["delta"] as! [String: Any]
                    text += delta["text"] as? String ?? ""
                    arguments += delta["partial_json"] as? String ?? ""
                case "message_stop": finished = true
                default: break
                }
            case .gemini:
                let candidate = (json["candidates"] as! [[String: Any]])[0]
                for part in (candidate["content"] as! [String: Any])["parts"] as! [[String: Any]] {
                    text += part["text"] as? String ?? ""
                    if let call = part["functionCall"] as? [String: Any] {
                        arguments = String(
                            decoding: try! JSONSerialization.data(withJSONObject: call["args"]!), as: UTF8.self)
                    }
                }
                if candidate["finishReason"] != nil { finished = true }
            }
        }
        while !finished { try await Task.sleep(for: .seconds(1)) }  // The end is still to come.
        let query = try! JSONDecoder().decode(AssistantViewModel.RecipeQuery.self, from: Data(arguments.utf8))
        return text + "\n" + AssistantViewModel.findRecipe(query)
    }
}
