/// The sample entries of `stsd` (ISO/IEC 14496-12 §12.1.3, §12.2.3): `avc1` with its `avcC`
/// (ISO/IEC 14496-15 §5.4.2) and `mp4a` with its `esds` (ISO/IEC 14496-14 §5.6, the
/// descriptors of ISO/IEC 14496-1 §7.2.6).
enum MP4SampleEntry {
    /// Writes the sample entry of `media`.
    static func write(_ media: MP4Track.Media, into writer: inout MP4BoxWriter) {
        switch media {
        case .avc(let configuration):
            writer.box("avc1") { box in
                box.zeros(6)
                box.u16(1)   // data_reference_index
                box.zeros(16)   // pre_defined, reserved
                box.u16(UInt16(clamping: configuration.sequence.width))
                box.u16(UInt16(clamping: configuration.sequence.height))
                box.u32(0x0048_0000)   // 72 dpi
                box.u32(0x0048_0000)
                box.u32(0)
                box.u16(1)   // frame_count
                box.zeros(32)   // compressorname
                box.u16(0x0018)   // depth
                box.u16(0xFFFF)   // pre_defined -1
                box.box("avcC") { $0.append(configuration.record) }
            }
        case .copied(let entry):
            writer.append(entry.bytes)
        case .aac(let header):
            writer.box("mp4a") { box in
                box.zeros(6)
                box.u16(1)   // data_reference_index
                box.zeros(8)
                box.u16(UInt16(max(1, header.channelConfiguration)))
                box.u16(16)   // samplesize
                box.zeros(4)
                box.u32(UInt32(min(header.sampleRate, 65535)) << 16)
                box.box("esds", version: 0) { $0.append(elementaryStreamDescriptor(header.audioSpecificConfig)) }
            }
        }
    }

    /// The `ES_Descriptor` of AAC: object type 0x40 (ISO/IEC 14496-3 audio), an audio stream,
    /// its `AudioSpecificConfig`, and the MP4 file's `SLConfigDescriptor` (predefined 2).
    static func elementaryStreamDescriptor(_ audioSpecificConfig: [UInt8]) -> [UInt8] {
        let specific = descriptor(0x05, audioSpecificConfig)
        let decoderConfig = descriptor(0x04, [0x40, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] + specific)
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
