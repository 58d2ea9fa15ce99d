/// The sample entries of `stsd` (ISO/IEC 14496-12 §12.1.3, §12.2.3): `avc1` with its `avcC`
/// (ISO/IEC 14496-15 §5.4.2), `hvc1` with its `hvcC` (§8.4.1), `mp4a` with its `esds` (ISO/IEC
/// 14496-14 §5.6, the descriptors of ISO/IEC 14496-1 §7.2.6) for AAC and MPEG audio, `ac-3` and
/// `ec-3` with `dac3` and `dec3` (ETSI TS 102 366 Annex F).
enum MP4SampleEntry {
    /// Writes the sample entry of `media`.
    static func write(_ media: MP4Track.Media, into writer: inout MP4BoxWriter) {
        switch media {
        case .avc(let configuration):
            visual("avc1", configuration.sequence.width, configuration.sequence.height, into: &writer) { $0.box("avcC") { $0.append(configuration.record) } }
        case .hevc(let configuration):
            visual("hvc1", configuration.sequence.width, configuration.sequence.height, into: &writer) { $0.box("hvcC") { $0.append(configuration.record) } }
        case .copied(let entry):
            writer.append(entry.bytes)
        case .aac(let header):
            audio("mp4a", channels: max(1, Int(header.channelConfiguration)), rate: header.sampleRate, into: &writer) { box in
                box.box("esds", version: 0) { $0.append(elementaryStreamDescriptor(objectType: 0x40, specific: header.audioSpecificConfig)) }
            }
        case .mpegAudio(let configuration):
            audio("mp4a", channels: configuration.channelCount, rate: configuration.sampleRate, into: &writer) { box in
                box.box("esds", version: 0) { $0.append(elementaryStreamDescriptor(objectType: configuration.objectType, specific: nil)) }
            }
        case .ac3(let configuration):
            // ETSI TS 102 366 F.3: channelcount and samplesize are not used (2, 16).
            audio("ac-3", channels: 2, rate: configuration.sampleRate, into: &writer) { $0.box("dac3") { $0.append(configuration.specificBox) } }
        case .eac3(let configuration):
            audio("ec-3", channels: 2, rate: configuration.sampleRate, into: &writer) { $0.box("dec3") { $0.append(configuration.specificBox) } }
        case .timedText:
            timedText(into: &writer)
        }
    }

    /// A `VisualSampleEntry` of `type` for pictures of `width` x `height`, its codec boxes
    /// written by `codec`.
    private static func visual(_ type: String, _ width: Int, _ height: Int, into writer: inout MP4BoxWriter, codec: (inout MP4BoxWriter) -> Void) {
        writer.box(type) { box in
            box.zeros(6)
            box.u16(1)   // data_reference_index
            box.zeros(16)   // pre_defined, reserved
            box.u16(UInt16(clamping: width))
            box.u16(UInt16(clamping: height))
            box.u32(0x0048_0000)   // 72 dpi
            box.u32(0x0048_0000)
            box.u32(0)
            box.u16(1)   // frame_count
            box.zeros(32)   // compressorname
            box.u16(0x0018)   // depth
            box.u16(0xFFFF)   // pre_defined -1
            codec(&box)
        }
    }

    /// The `TextSampleEntry` `tx3g` (3GPP TS 26.245 §5.16) as ffmpeg writes it: centred at the
    /// bottom, no background, a default style of white 18-point text in font 1, "Serif".
    private static func timedText(into writer: inout MP4BoxWriter) {
        writer.box("tx3g") { box in
            box.zeros(6)
            box.u16(1)   // data_reference_index
            box.u32(0)   // displayFlags
            box.u8(1)   // horizontal-justification: centre
            box.u8(0xFF)   // vertical-justification: bottom (-1)
            box.u32(0)   // background-color-rgba
            box.zeros(8)   // default text box
            box.u16(0); box.u16(0); box.u16(1)   // style record: startChar, endChar, font-ID
            box.u8(0); box.u8(0x12)   // face-style-flags, font-size
            box.u32(0xFFFF_FFFF)   // text-color-rgba
            box.box("ftab") { ftab in
                ftab.u16(1)
                ftab.u16(1)
                ftab.u8(5)
                ftab.fourCC("Seri")
                ftab.u8(0x66)   // "f"
            }
        }
    }

    /// An `AudioSampleEntry` of `type`, its codec boxes written by `codec`.
    private static func audio(_ type: String, channels: Int, rate: Int, into writer: inout MP4BoxWriter, codec: (inout MP4BoxWriter) -> Void) {
        writer.box(type) { box in
            box.zeros(6)
            box.u16(1)   // data_reference_index
            box.zeros(8)
            box.u16(UInt16(clamping: channels))
            box.u16(16)   // samplesize
            box.zeros(4)
            box.u32(UInt32(min(rate, 65535)) << 16)
            codec(&box)
        }
    }

    /// The `ES_Descriptor` of an audio stream of `objectType` (0x40 ISO/IEC 14496-3 AAC, 0x6B
    /// MPEG-1 audio, 0x69 MPEG-2 audio), its decoder-specific info (AAC's `AudioSpecificConfig`;
    /// MPEG audio has none), and the MP4 file's `SLConfigDescriptor` (predefined 2).
    static func elementaryStreamDescriptor(objectType: UInt8, specific: [UInt8]?) -> [UInt8] {
        let info = specific.map { descriptor(0x05, $0) } ?? []
        let decoderConfig = descriptor(0x04, [objectType, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] + info)
        return descriptor(0x03, [0, 0, 0] + decoderConfig + descriptor(0x06, [0x02]))
    }

    /// A descriptor: its tag, its size in the expandable form (ISO/IEC 14496-1 §8.3.3), its body.
    private static func descriptor(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
        var size = body.count
        var length: [UInt8] = [UInt8(size & 0x7F)]
        size >>= 7
        while size > 0 {
            length.insert(UInt8(size & 0x7F) | 0x80, at: 0)
            size >>= 7
        }
        return [tag] + length + body
    }
}
