import Testing
@_spi(Package) import WaterfallJSON
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallWire

/// Strict params access: every error names the field's full path, and unread members are refused.
@Suite struct ParamsTests {
    @Test func readsEachTypeAndMarksItRead() throws {
        let document = try JSONDocument(
            parsing: #"{"s":"x","i":-3,"d":2.5,"n":4,"b":true,"a":[1,2],"z":null}"#)
        var p = try Params(document.root, path: "params")
        #expect(try p.string("s") == "x")
        #expect(try p.int("i") == -3)
        #expect(try p.double("d") == 2.5)
        #expect(try p.double("n") == 4)
        #expect(try p.optionalBool("b") == true)
        #expect(try p.array("a").underestimatedCount == 2)
        #expect(try p.optionalInt("z") == nil, "null reads as absent")
        #expect(try p.optionalString("absent") == nil)
        #expect(p.contains("z"))
        #expect(!p.contains("absent"))
        try p.finish()
    }

    @Test func anAbsentParamsObjectIsEmpty() throws {
        var p = try Params(nil, path: "params")
        #expect(try p.optionalInt("at") == nil)
        try p.finish()
    }

    /// One failing read: the object, what is read, and the exact message.
    struct Failure: Sendable, CustomTestStringConvertible {
        var json: String
        var read: Read
        var message: String
        var testDescription: String { "\(read) of \(json)" }
    }

    enum Read: Sendable {
        case string, int, double, bool, array, finish
    }

    static let failures: [Failure] = [
        Failure(json: #"{}"#, read: .int, message: "params.at: missing"),
        Failure(json: #"{"at":null}"#, read: .int, message: "params.at: missing"),
        Failure(json: #"{"at":"3"}"#, read: .int, message: #"params.at: must be an integer, not string "3""#),
        Failure(json: #"{"at":1.5}"#, read: .int, message: "params.at: 1.5 is not an integer in range"),
        Failure(json: #"{"at":3.0}"#, read: .int, message: "params.at: 3.0 is not an integer in range"),
        Failure(
            json: #"{"at":99999999999999999999}"#, read: .int,
            message: "params.at: 99999999999999999999 is not an integer in range"),
        Failure(json: #"{"at":true}"#, read: .double, message: "params.at: must be a number, not bool true"),
        Failure(json: #"{"at":1}"#, read: .string, message: "params.at: must be a string, not number 1"),
        Failure(json: #"{"at":"yes"}"#, read: .bool, message: #"params.at: must be true or false, not string "yes""#),
        Failure(json: #"{"at":{}}"#, read: .array, message: "params.at: must be an array, not object {}"),
        Failure(json: #"{}"#, read: .array, message: "params.at: missing"),
        Failure(json: #"{"at":1,"At":2}"#, read: .finish, message: "params.At: unknown field"),
    ]

    @Test(arguments: failures)
    func namesTheFieldAndTheValue(_ c: Failure) throws {
        let document = try JSONDocument(parsing: c.json)
        var p = try Params(document.root, path: "params")
        let error = #expect(throws: ProtocolError.self) {
            switch c.read {
            case .string: _ = try p.string("at")
            case .int: _ = try p.int("at")
            case .double: _ = try p.double("at")
            case .bool: _ = try p.optionalBool("at")
            case .array: _ = try p.array("at")
            case .finish:
                _ = try p.int("at")
                try p.finish()
            }
        }
        #expect(error?.code == .badParams)
        #expect(error?.message == c.message)
    }

    @Test func refusesANonObject() throws {
        let document = try JSONDocument(parsing: "[1]")
        #expect(throws: ProtocolError.badParams("params.items[3]", "must be an object, not array")) {
            _ = try Params(document.root, path: "params.items[3]")
        }
    }

    /// Errors deep inside a request name the whole path, down to the array index.
    @Test(arguments: [
        (
            #"{"section":0,"at":0,"items":[{"h":1},{"h":2},{"h":3},{"h":"tall"}]}"#,
            #"params.items[3].h: must be a number, not string "tall""#
        ),
        (#"{"section":0,"at":0,"items":[{"h":1},{"w":2}]}"#, "params.items[1].h: missing"),
        (#"{"section":0,"at":0,"items":[{"h":1,"height":2}]}"#, "params.items[0].height: unknown field"),
        (
            #"{"section":0,"at":0,"items":[{"h":1,"span":"half"}]}"#,
            #"params.items[0].span: "half" is not a number or "full""#
        ),
        (
            #"{"section":0,"items":[{"i":0,"h":1},{"i":"1","h":1}]}"#,
            #"params.items[1].i: must be an integer, not string "1""#
        ),
        (#"{"section":0,"at":0,"items":[3]}"#, "params.items[0]: must be an object, not number"),
        // One-member items beside plain `{"h": n}` ones, which the decoder reads by a shortcut.
        (#"{"section":0,"at":0,"items":[{"h":1},{"H":2}]}"#, "params.items[1].H: unknown field"),
        (#"{"section":0,"at":0,"items":[{"h":1},{"h":null}]}"#, "params.items[1].h: missing"),
        (#"{"section":0,"at":0,"items":[{"h":1},{"h":true}]}"#, "params.items[1].h: must be a number, not bool true"),
    ])
    func namesTheFullPath(json: String, message: String) throws {
        let document = try JSONDocument(parsing: json)
        let method: ChangeMethod = json.contains(#""at""#) ? .itemsInsert : .itemsUpdate
        let error = #expect(throws: ProtocolError.self) {
            var p = try Params(document.root, path: "params")
            _ = try CommandDecoding.command(method, &p)
            try p.finish()
        }
        #expect(error?.message == message)
    }
}
