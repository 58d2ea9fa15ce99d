#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraSupport

/// A channel list (`tessera record --channels FILE`): one channel a line, `NAME URL [flags]`, in
/// UTF-8. Blank lines and lines whose first word starts with `#` are ignored, as is a `#` word
/// and what follows it on a line. Words are split at spaces and tabs and quoted as a POSIX shell
/// does: `'…'` literally, `"…"` with `\"` and `\\` escaped, and `\` outside quotes escapes the
/// next character — so `-H 'Authorization: Bearer x'` is one flag and its value.
///
/// A name is the channel's folder under the recorder's directory: 1 to 64 of `A-Z a-z 0-9 _ -`,
/// not starting with `-`, unique in the list. The URL is an absolute `http` or `https` URL. The
/// flags are `tessera record`'s, for this channel (they are not read here).
///
/// Bounded: at most `maximumBytes` of text, `maximumChannels` channels, `maximumLineBytes` a line.
public struct ChannelList: Sendable, Equatable {
    /// One channel's line.
    public struct Entry: Sendable, Equatable {
        /// The channel's name (its folder).
        public let name: String
        /// Its live playlist.
        public let url: URL
        /// The words after the URL.
        public let arguments: [String]
        /// Where it is in the file (from 1).
        public let line: Int
    }

    /// The channels, in the file's order.
    public let entries: [Entry]

    /// The most bytes of a channel list.
    public static let maximumBytes = 1 << 20
    /// The most channels of a list.
    public static let maximumChannels = 4096
    /// The longest line.
    public static let maximumLineBytes = 16 << 10
    /// The longest name.
    public static let maximumNameLength = 64

    /// The list in `text`.
    /// - Throws: `invalid-channel-list`, naming the line and what is wrong with it.
    public init(parsing text: some Collection<UInt8>) throws(HLSError) {
        guard text.count <= Self.maximumBytes else {
            throw HLSError(.invalidChannelList, "The channel list is \(text.count) bytes, over the limit of \(Self.maximumBytes).")
        }
        guard let string = String(validating: Array(text), as: UTF8.self) else {
            throw HLSError(.invalidChannelList, "The channel list is not UTF-8 text.")
        }
        var entries: [Entry] = []
        var names: [String: Int] = [:]
        // Split on the byte: as Characters, "\r\n" is one, not a line break.
        for (index, bytes) in string.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let line = Substring(bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes)
            let number = index + 1
            guard line.utf8.count <= Self.maximumLineBytes else {
                throw HLSError(.invalidChannelList, "Line \(number) of the channel list is over \(Self.maximumLineBytes) bytes.")
            }
            let words = try ChannelLineWords.split(line, line: number)
            guard let name = words.first else { continue }
            guard words.count >= 2 else { throw HLSError(.invalidChannelList, "Line \(number): a channel needs a name and a URL (NAME URL [flags]).") }
            guard Self.isValidName(name) else {
                throw HLSError(.invalidChannelList, "Line \(number): \"\(name.prefix(80))\" is not a channel name (1 to \(Self.maximumNameLength) of A-Z a-z 0-9 _ -, not starting with -).")
            }
            if let earlier = names[name] { throw HLSError(.invalidChannelList, "Line \(number): the channel \(name) is already on line \(earlier).") }
            guard let url = URL(string: words[1]), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  let host = url.host, !host.isEmpty else {
                throw HLSError(.invalidChannelList, "Line \(number): the channel \(name) needs an absolute http or https URL after its name.")
            }
            guard entries.count < Self.maximumChannels else {
                throw HLSError(.invalidChannelList, "The channel list has more than \(Self.maximumChannels) channels.")
            }
            names[name] = number
            entries.append(Entry(name: name, url: url, arguments: Array(words.dropFirst(2)), line: number))
        }
        self.entries = entries
    }

    /// Reads and parses the list at `path`.
    /// - Throws: `invalid-channel-list` (also when it cannot be read, or is too large).
    public static func load(_ path: URL) throws(HLSError) -> ChannelList {
        let bytes: [UInt8]
        do throws(SupportError) { bytes = try FileDescriptorIO.readRegularFile(path.path, limit: maximumBytes) } catch {
            throw HLSError(.invalidChannelList, "The channel list cannot be read: \(error.message)")
        }
        return try ChannelList(parsing: bytes)
    }

    /// Whether `name` can name a channel (and its folder).
    public static func isValidName(_ name: String) -> Bool {
        guard (1...maximumNameLength).contains(name.utf8.count), name.utf8.first != UInt8(ascii: "-") else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}
