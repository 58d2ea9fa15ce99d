/* The most any WebSocket client can reach against a given echo server on this machine, for
 * small messages: the fewest instructions a client can spend per round trip — one blocking
 * socket, the upgrade handshake, then each 32-byte text message sent as one masked frame
 * (RFC 6455 §5.2, FIN, no extensions) with one send and its echo read with blocking recvs, no
 * event loop, no checks beyond the frame header and the echoed bytes. With one small frame each
 * way there is nothing to overlap, so the rate it reaches is the server's and the kernel's share
 * of a round trip: no client's ratio against another client can pass this one's ratio.
 * Usage: ws_ceiling_client <port> <round trips>; prints "rt-small <count> <seconds>" like the
 * clients in Scripts/bench-websocket.sh. Exit 1 on any failure. */
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { PAYLOAD = 32 };

static _Noreturn void fail(const char *what) { fprintf(stderr, "ws_ceiling_client: %s\n", what); exit(1); }

static void send_all(int fd, const uint8_t *bytes, size_t count) {
    while (count > 0) {
        ssize_t n = send(fd, bytes, count, 0);
        if (n <= 0) fail("send failed");
        bytes += n;
        count -= (size_t)n;
    }
}

static void recv_all(int fd, uint8_t *bytes, size_t count) {
    while (count > 0) {
        ssize_t n = recv(fd, bytes, count, 0);
        if (n <= 0) fail("the server closed the connection");
        bytes += n;
        count -= (size_t)n;
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: ws_ceiling_client <port> <round trips>\n"); return 2; }
    int port = atoi(argv[1]), count = atoi(argv[2]), one = 1;
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) fail("connect failed");
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char request[256];
    int n = snprintf(request, sizeof request,
                     "GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", port);
    send_all(fd, (const uint8_t *)request, (size_t)n);
    /* The response head, a byte at a time up to its blank line (nothing may follow it yet). */
    char head[4096];
    size_t got = 0;
    while (got < 4 || memcmp(head + got - 4, "\r\n\r\n", 4) != 0) {
        if (got == sizeof head) fail("the response head is too long");
        recv_all(fd, (uint8_t *)head + got, 1);
        got++;
    }
    if (strncmp(head, "HTTP/1.1 101", 12) != 0) fail("the upgrade was refused");
    /* The RFC's sample key has this accept value (RFC 6455 §1.3). */
    if (!strstr(head, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")) fail("wrong Sec-WebSocket-Accept");

    uint8_t payload[PAYLOAD], frame[2 + 4 + PAYLOAD], echo[2 + PAYLOAD];
    memset(payload, 'x', sizeof payload);
    frame[0] = 0x81;              /* FIN, text */
    frame[1] = 0x80 | PAYLOAD;    /* masked, 7-bit length */
    double start = now();
    for (int i = 0; i < count; i++) {
        for (int k = 0; k < 4; k++) frame[2 + k] = (uint8_t)rand();
        for (int k = 0; k < PAYLOAD; k++) frame[6 + k] = payload[k] ^ frame[2 + (k & 3)];
        send_all(fd, frame, sizeof frame);
        recv_all(fd, echo, sizeof echo);
        if (echo[0] != 0x81 || echo[1] != PAYLOAD) fail("an echo is not one unmasked 32-byte text frame");
        if (memcmp(echo + 2, payload, PAYLOAD) != 0) fail("an echo differs");
    }
    printf("rt-small %d %.4f\n", count, now() - start);
    uint8_t close_frame[6] = {0x88, 0x80, 0, 0, 0, 0};
    send_all(fd, close_frame, sizeof close_frame);
    close(fd);
    return 0;
}
