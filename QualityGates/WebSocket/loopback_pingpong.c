/* The loopback ceiling for sequential round trips on this machine: a blocking echo thread and a
 * blocking client exchanging a 38-byte message (the size of a masked 32-byte text frame) over
 * TCP on 127.0.0.1 with TCP_NODELAY — no framing, no event loop, nothing but send and recv.
 * Usage: loopback_pingpong <round trips>; prints "<kind> <count> <seconds>" like the clients
 * in Scripts/bench-websocket.sh. Exit 1 on any socket failure. */
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void *echo(void *argument) {
    int listener = *(int *)argument, one = 1;
    int peer = accept(listener, NULL, NULL);
    if (peer < 0) return NULL;
    setsockopt(peer, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char buffer[256];
    for (;;) {
        ssize_t n = recv(peer, buffer, sizeof buffer, 0);
        if (n <= 0 || send(peer, buffer, (size_t)n, 0) != n) break;
    }
    close(peer);
    return NULL;
}

int main(int argc, char **argv) {
    int count = argc > 1 ? atoi(argv[1]) : 0, one = 1;
    if (count <= 0) { fprintf(stderr, "usage: loopback_pingpong <round trips>\n"); return 2; }
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1) != 0 ||
        getsockname(listener, (struct sockaddr *)&address, &length) != 0) { perror("listen"); return 1; }
    pthread_t thread;
    if (pthread_create(&thread, NULL, echo, &listener) != 0) return 1;
    int client = socket(AF_INET, SOCK_STREAM, 0);
    if (client < 0 || connect(client, (struct sockaddr *)&address, sizeof address) != 0) { perror("connect"); return 1; }
    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char message[38], buffer[256];
    memset(message, 'x', sizeof message);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int i = 0; i < count; i++) {
        if (send(client, message, sizeof message, 0) != (ssize_t)sizeof message) return 1;
        for (size_t got = 0; got < sizeof message;) {
            ssize_t n = recv(client, buffer, sizeof buffer, 0);
            if (n <= 0) return 1;
            got += (size_t)n;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    printf("rt-small %d %.4f\n", count, (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9);
    close(client);
    return 0;
}
