import Foundation
import Testing
import TesseraHTTP
import TesseraHTTPTesting
import TesseraTestSupport

@Suite("Reachability: paths, the netlink monitor, and retries that wait for a path")
struct ReachabilityTests {
    typealias Source = ManualNetworkPathSource

    @Test("a path is satisfied only with a routable interface up and a default route")
    func status() {
        let wired = NetworkInterface(name: "eth0", kind: .wired, isUp: true, hasRoutableAddress: true)
        let lo = NetworkInterface(name: "lo", kind: .loopback, isUp: true, hasRoutableAddress: true)
        #expect(NetworkPath(interfaces: [lo, wired], hasIPv4DefaultRoute: true, hasIPv6DefaultRoute: false).isSatisfied)
        #expect(NetworkPath(interfaces: [wired], hasIPv4DefaultRoute: false, hasIPv6DefaultRoute: true).isSatisfied)
        #expect(!NetworkPath(interfaces: [lo], hasIPv4DefaultRoute: true, hasIPv6DefaultRoute: true).isSatisfied)
        #expect(!NetworkPath(interfaces: [wired], hasIPv4DefaultRoute: false, hasIPv6DefaultRoute: false).isSatisfied)
        let down = NetworkInterface(name: "wlan0", kind: .wifi, isUp: false, hasRoutableAddress: true)
        #expect(!NetworkPath(interfaces: [down], hasIPv4DefaultRoute: true, hasIPv6DefaultRoute: false).isSatisfied)
        #expect(NetworkPath(interfaces: [lo, wired], hasIPv4DefaultRoute: true, hasIPv6DefaultRoute: false).usableKinds == [.wired])
    }

    @Test("the system's path now: loopback is there and is a loopback; the monitor's first path agrees")
    func system() async {
        let now = LinuxNetworkPathMonitor.current()
        #expect(now.interfaces.contains { $0.name == "lo" && $0.kind == .loopback })
        var first: NetworkPath?
        for await path in LinuxNetworkPathMonitor(fallbackInterval: .milliseconds(50)).paths() {
            first = path
            break   // ends the stream: the monitor's thread stops
        }
        #expect(first?.interfaces.map(\.name) == now.interfaces.map(\.name))
    }

    @Test("waitForSatisfiedPath returns only once the source reports a satisfied path; changes() streams them")
    func waiting() async {
        let source = Source()
        let reachability = NetworkReachability(source: source)
        var changes = reachability.changes().makeAsyncIterator()
        source.send(Source.unsatisfied)
        #expect(await changes.next() == Source.unsatisfied)
        let waiter = Task { await reachability.waitForSatisfiedPath() }
        while reachability.waiting < 1 { await Task.yield() }
        source.send(Source.satisfied)
        await waiter.value
        #expect(await changes.next() == Source.satisfied)
        #expect(reachability.path?.isSatisfied == true && reachability.waiting == 0)
    }

    @Test("a retry after a connect failure waits for the path instead of its backoff, then succeeds")
    func retryWaitsForPath() async throws {
        let source = Source()
        let reachability = NetworkReachability(source: source)
        var changes = reachability.changes().makeAsyncIterator()
        source.send(Source.unsatisfied)
        _ = await changes.next()
        let url = URL(string: "https://api.example/v1/items")!
        let transport = MockTransport()
        transport.stub(url, .failure(HTTPError(.connect, code: .connectFailed, "Network is unreachable")))
        transport.stub(url, .ok(Array("[]".utf8)))
        var configuration = HTTPClientConfiguration()
        configuration.pipeline.reachability = ReachabilityPolicy(reachability: reachability, maximumWait: .seconds(600))
        let clock = ManualClock()
        let client = try HTTPClient(baseURL: URL(string: "https://api.example/v1")!, configuration: configuration, transport: transport, clock: clock)
        let request = Task { () async throws(HTTPError) -> [UInt8] in try await client.send(Items()) }
        while reachability.waiting < 1 { await Task.yield() }
        #expect(transport.requests.count == 1)
        source.send(Source.satisfied)
        #expect(try await request.value == Array("[]".utf8))
        #expect(transport.requests.count == 2)
    }

    @Test("with the path up the retry keeps its backoff; the policy is off by default")
    func satisfiedKeepsBackoff() async throws {
        let source = Source()
        let reachability = NetworkReachability(source: source)
        var changes = reachability.changes().makeAsyncIterator()
        source.send(Source.satisfied)
        _ = await changes.next()
        let url = URL(string: "https://api.example/v1/items")!
        let transport = MockTransport()
        transport.stub(url, .failure(HTTPError(.connect, code: .connectFailed, "refused")))
        transport.stub(url, .ok(Array("[]".utf8)))
        var configuration = HTTPClientConfiguration()
        configuration.pipeline.reachability = ReachabilityPolicy(reachability: reachability)
        let clock = ImmediateClock()
        let client = try HTTPClient.stub(baseURL: URL(string: "https://api.example/v1")!, transport: transport, configuration: configuration, clock: clock)
        _ = try await client.send(Items())
        #expect(clock.sleeps.count == 1 && reachability.waiting == 0)
    }

    private struct Items: Endpoint {
        typealias Response = [UInt8]
        var path: String { "items" }
    }
}

@Suite("Route tables as /proc prints them")
struct RouteTableTests {
    @Test("IPv4: a default route up; none when only subnet routes or the default is down")
    func ipv4() {
        let header = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
        #expect(NetworkPathParsing.ipv4(header + "eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"))
        #expect(!NetworkPathParsing.ipv4(header + "eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"))
        #expect(!NetworkPathParsing.ipv4(header + "eth0\t00000000\t010200C0\t0002\t0\t0\t0\t00000000\t0\t0\t0\n"))
        #expect(!NetworkPathParsing.ipv4(""))
    }

    @Test("IPv6: ::/0 up on a real interface; not a rejection route, not on lo")
    func ipv6() {
        let zero = String(repeating: "0", count: 32)
        let up = "\(zero) 00 \(zero) 00 fe800000000000000000000000000001 00000400 00000001 00000000 00000003 eth0\n"
        let reject = "\(zero) 00 \(zero) 00 \(zero) ffffffff 00000001 00000000 00200200 lo\n"
        #expect(NetworkPathParsing.ipv6(up))
        #expect(!NetworkPathParsing.ipv6(reject))
        #expect(!NetworkPathParsing.ipv6("fe800000000000000000000000000000 40 \(zero) 00 \(zero) 00000100 00000001 00000000 00000001 eth0\n"))
    }
}
