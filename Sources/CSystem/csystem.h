// System calls the Swift Glibc module does not export (they need _GNU_SOURCE, or are raw
// syscalls such as openat2). Wrappers only.
#ifndef TESSERA_CSYSTEM_H
#define TESSERA_CSYSTEM_H

#ifdef __linux__
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/openat2.h>
#include <malloc.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/falloc.h>

/// Serves buffers up to `large` bytes from at most `arenas` heaps instead of fresh mappings, and
/// keeps up to `trim` bytes of freed heap for reuse (glibc mallopt M_ARENA_MAX,
/// M_MMAP_THRESHOLD, M_TRIM_THRESHOLD).
static inline void tessera_reuse_large_buffers(int arenas, int large, int trim) {
    mallopt(M_ARENA_MAX, arenas);
    mallopt(M_MMAP_THRESHOLD, large);
    mallopt(M_TRIM_THRESHOLD, trim);
}

/// Keeps up to `trim` bytes of freed heap for reuse instead of returning it to the kernel, and
/// grows the heap `pad` bytes at a time (glibc mallopt M_TRIM_THRESHOLD, M_TOP_PAD).
static inline void tessera_keep_freed_heap(int trim, int pad) {
    mallopt(M_TRIM_THRESHOLD, trim);
    mallopt(M_TOP_PAD, pad);
}

/// What tells one version of the open file `fd` from another: into `out`, its device, inode,
/// size, modification time (seconds, nanoseconds), inode change time (seconds, nanoseconds) and
/// whether it is a regular file (1 or 0). Returns 0, or the errno value.
static inline int tessera_file_identity(int fd, unsigned long long out[8]) {
    struct stat info;
    if (fstat(fd, &info) != 0) return errno;
    out[0] = (unsigned long long)info.st_dev;
    out[1] = (unsigned long long)info.st_ino;
    out[2] = (unsigned long long)info.st_size;
    out[3] = (unsigned long long)info.st_mtim.tv_sec;
    out[4] = (unsigned long long)info.st_mtim.tv_nsec;
    out[5] = (unsigned long long)info.st_ctim.tv_sec;
    out[6] = (unsigned long long)info.st_ctim.tv_nsec;
    out[7] = S_ISREG(info.st_mode) ? 1 : 0;
    return 0;
}

/// Returns the freed memory of every malloc arena to the kernel (glibc malloc_trim(0)).
static inline void tessera_return_freed_heap(void) { (void)malloc_trim(0); }

/// Bytes the allocator has handed out and not had back: its arenas' and its own mappings'
/// (glibc mallinfo2 uordblks + hblkhd).
static inline unsigned long long tessera_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (unsigned long long)info.uordblks + (unsigned long long)info.hblkhd;
}

/// The process's resident size in bytes (/proc/self/statm), 0 when it cannot be read.
static inline unsigned long long tessera_resident_bytes(void) {
    FILE *file = fopen("/proc/self/statm", "re");
    if (!file) return 0;
    unsigned long long size = 0, resident = 0;
    int read = fscanf(file, "%llu %llu", &size, &resident);
    fclose(file);
    long page = sysconf(_SC_PAGESIZE);
    return read == 2 && page > 0 ? resident * (unsigned long long)page : 0;
}

/// Reserves `length` bytes at `offset` without changing the file size (FALLOC_FL_KEEP_SIZE).
/// Returns 0, or the errno value.
static inline int tessera_reserve_keep_size(int fd, long long offset, long long length) {
    int result;
    do { result = fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length); } while (result != 0 && errno == EINTR);
    return result == 0 ? 0 : errno;
}

/// Opens a hole of `length` bytes at `offset`, moving the bytes from there `length` further on
/// without copying them (FALLOC_FL_INSERT_RANGE; `offset` and `length` multiples of the
/// filesystem's block). Returns 0, or the errno value (EOPNOTSUPP where the filesystem cannot).
static inline int tessera_insert_range(int fd, long long offset, long long length) {
#ifdef FALLOC_FL_INSERT_RANGE
    int result;
    do { result = fallocate(fd, FALLOC_FL_INSERT_RANGE, (off_t)offset, (off_t)length); } while (result != 0 && errno == EINTR);
    return result == 0 ? 0 : errno;
#else
    (void)fd; (void)offset; (void)length;
    return EOPNOTSUPP;
#endif
}

/// The block size of the filesystem holding `fd` (fstatfs f_bsize), or 0.
static inline long long tessera_filesystem_block(int fd) {
    struct statfs info;
    return fstatfs(fd, &info) == 0 ? (long long)info.f_bsize : 0;
}

/// Opens `path` (relative) beneath the directory `rootfd` with `flags` (O_CLOEXEC and O_NOFOLLOW
/// are added) and `mode`, refusing any symlink on the way and any escape from the root
/// (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS). Falls back to openat(O_NOFOLLOW) only when
/// the kernel lacks openat2. Returns -1 with errno set on failure.
static inline int tessera_open_beneath(int rootfd, const char *path, int flags, unsigned int mode) {
#if defined(SYS_openat2)
    struct open_how how;
    memset(&how, 0, sizeof(how));
    how.flags = (unsigned long long)(flags | O_CLOEXEC | O_NOFOLLOW);
    how.mode = (flags & O_CREAT) ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd;
    do { fd = syscall(SYS_openat2, rootfd, path, &how, sizeof(how)); } while (fd < 0 && errno == EINTR);
    if (fd >= 0 || errno != ENOSYS) return (int)fd;
#endif
    return openat(rootfd, path, flags | O_CLOEXEC | O_NOFOLLOW, mode);
}

/// Renames `from` to `to` only when `to` does not exist (renameat2 RENAME_NOREPLACE; works for
/// folders, unlike link). Returns 0, or the errno value.
/// Flushes every dirty page and inode of the file system `fd` is on (one flush for a whole tree
/// of new files); 0, or -1 with errno.
static inline int tessera_syncfs(int fd) { return syncfs(fd); }
/// Starts writing `length` bytes at `offset` back to the disk without waiting (sync_file_range
/// SYNC_FILE_RANGE_WRITE): a later fdatasync has less left to wait for. Returns 0, or errno.
static inline int tessera_start_writeback(int fd, long long offset, long long length) {
    return sync_file_range(fd, (off_t)offset, (off_t)length, SYNC_FILE_RANGE_WRITE) == 0 ? 0 : errno;
}

static inline int tessera_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0 ? 0 : errno;
}

/// Swaps `a` and `b` atomically (renameat2 RENAME_EXCHANGE). Returns 0, or the errno value.
static inline int tessera_rename_exchange(const char *a, const char *b) {
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0 ? 0 : errno;
}
#else
static inline void tessera_reuse_large_buffers(int arenas, int large, int trim) { (void)arenas; (void)large; (void)trim; }
static inline void tessera_keep_freed_heap(int trim, int pad) { (void)trim; (void)pad; }
static inline void tessera_return_freed_heap(void) {}
static inline unsigned long long tessera_heap_in_use(void) { return 0; }
static inline unsigned long long tessera_resident_bytes(void) { return 0; }
static inline int tessera_reserve_keep_size(int fd, long long offset, long long length) {
    (void)fd; (void)offset; (void)length;
    return 95; /* EOPNOTSUPP */
}
static inline int tessera_open_beneath(int rootfd, const char *path, int flags, unsigned int mode) {
    return openat(rootfd, path, flags | O_CLOEXEC | O_NOFOLLOW, mode);
}
static inline int tessera_syncfs(int fd) { return fsync(fd); }
static inline int tessera_start_writeback(int fd, long long offset, long long length) { (void)fd; (void)offset; (void)length; return 0; }
static inline int tessera_rename_noreplace(const char *from, const char *to) { (void)from; (void)to; return 45; }
static inline int tessera_rename_exchange(const char *a, const char *b) { (void)a; (void)b; return 45; }
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78; RFC 3720 §B.4) of `count` bytes at
/// `data`, continuing `crc` (0 to start; the value is pre- and post-inverted here, so results
/// chain). The CPU's instruction where it has one (SSE 4.2, ARMv8 CRC), else bit by bit.
static inline uint32_t tessera_crc32c_bitwise(uint32_t crc, const unsigned char *p, size_t n) {
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
    }
    return crc;
}
#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static inline uint32_t tessera_crc32c_sse42(uint32_t crc, const unsigned char *p, size_t n) {
    uint64_t c = crc;
    while (n >= 8) { uint64_t v; memcpy(&v, p, 8); c = __builtin_ia32_crc32di(c, v); p += 8; n -= 8; }
    uint32_t c32 = (uint32_t)c;
    while (n--) c32 = __builtin_ia32_crc32qi(c32, *p++);
    return c32;
}
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
static inline uint32_t tessera_crc32c_armv8(uint32_t crc, const unsigned char *p, size_t n) {
    while (n >= 8) { uint64_t v; memcpy(&v, p, 8); crc = __builtin_arm_crc32cd(crc, v); p += 8; n -= 8; }
    while (n--) crc = __builtin_arm_crc32cb(crc, *p++);
    return crc;
}
#endif
static inline uint32_t tessera_crc32c(uint32_t crc, const void *data, size_t count) {
    const unsigned char *p = (const unsigned char *)data;
    crc = ~crc;
#if defined(__x86_64__)
    crc = __builtin_cpu_supports("sse4.2") ? tessera_crc32c_sse42(crc, p, count) : tessera_crc32c_bitwise(crc, p, count);
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
    crc = tessera_crc32c_armv8(crc, p, count);
#else
    crc = tessera_crc32c_bitwise(crc, p, count);
#endif
    return ~crc;
}

#endif
