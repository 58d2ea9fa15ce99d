/// Which renditions of a type (audio or subtitles) to take from the chosen variant's group.
public struct RenditionPolicy: Hashable, Sendable, CustomStringConvertible {
    /// What to take.
    public enum Choice: Hashable, Sendable {
        /// What a player does without a user's choice: the DEFAULT=YES rendition; else, for
        /// audio, the first AUTOSELECT=YES one, else the first; for subtitles, none.
        case automatic
        /// None.
        case none
        /// Every rendition of the group.
        case all
        /// For each BCP 47 tag in order, the best rendition it finds by RFC 4647 lookup.
        case languages([String])
        /// The rendition with this NAME (exact).
        case name(String)
    }

    /// How renditions with a characteristic rank.
    public enum Preference: Hashable, Sendable {
        /// Ranked like the others.
        case neutral
        /// Taken before the others.
        case prefer
        /// Taken only when nothing else answers.
        case avoid
        /// Never taken.
        case exclude
    }

    /// What to take.
    public var choice: Choice
    /// Accessibility renditions (CHARACTERISTICS `public.accessibility.*`: described video,
    /// transcribed dialog, described music and sound).
    public var accessibility: Preference
    /// Machine-generated renditions (`public.machine-generated`, e.g. automatic subtitles).
    public var machineGenerated: Preference
    /// Translations (`public.translation`, dubbed or translated renditions).
    public var translations: Preference

    /// A policy; by default what a player does, everything ranked alike.
    public init(_ choice: Choice = .automatic, accessibility: Preference = .neutral, machineGenerated: Preference = .neutral,
                translations: Preference = .neutral) {
        self.choice = choice
        self.accessibility = accessibility
        self.machineGenerated = machineGenerated
        self.translations = translations
    }

    /// The CLI's form: `default`, `none`, `all`, `lang:<tag>[,<tag>…]`, `name:<NAME>`.
    public init?(_ text: String) {
        switch text {
        case "default": self.init(.automatic)
        case "none": self.init(.none)
        case "all": self.init(.all)
        default:
            if text.hasPrefix("lang:") {
                let tags = text.dropFirst(5).split(separator: ",").map(String.init).filter { !$0.isEmpty }
                guard !tags.isEmpty else { return nil }
                self.init(.languages(tags))
            } else if text.hasPrefix("name:"), text.count > 5 {
                self.init(.name(String(text.dropFirst(5))))
            } else {
                return nil
            }
        }
    }

    public var description: String {
        switch choice {
        case .automatic: "default"
        case .none: "none"
        case .all: "all"
        case .languages(let tags): "lang:" + tags.joined(separator: ",")
        case .name(let name): "name:" + name
        }
    }
}
