import TesseraHLS

/// The page `GET /` answers: an HTML `<video>` pointed at `master.m3u8` (browsers that play HLS
/// natively — Safari, Chromium — play the package), and the package's tracks.
enum PlayerPage {
    static func html(_ manifest: PackageManifest) -> [UInt8] {
        let tracks = manifest.tracks.map { track in
            let details = [track.resolution, track.codecs, track.name, track.language].compactMap { $0 }.joined(separator: ", ")
            return "<li>\(escape(track.id)) (\(escape(track.role.rawValue))\(details.isEmpty ? "" : ": " + escape(details)))</li>"
        }.joined()
        let page = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <title>Tessera package</title>
        <style>body{margin:0;background:#111;color:#ddd;font:14px system-ui,sans-serif}video{display:block;width:100%;max-height:85vh;background:#000}p,ul{margin:12px 16px}</style>
        </head><body>
        <video controls autoplay muted playsinline src="\(escape(manifest.entry))"></video>
        <p>Offline package served by tessera over loopback: <a href="\(escape(manifest.entry))">\(escape(manifest.entry))</a>, <a href="manifest.json">manifest.json</a></p>
        <ul>\(tracks)</ul>
        </body></html>

        """
        return Array(page.utf8)
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
