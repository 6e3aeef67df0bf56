/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The one rule for opening inputs (fileio.h). A regular file is read
 * whole; a directory, a FIFO, a socket, a device node and (with
 * READ_NOFOLLOW) a symbolic link are refused at once, with a reason; a
 * FIFO without a writer never blocks the open (alarm() ends the test if it
 * does). */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "test-util.h"

static char dir[] = "/tmp/test-fileio.XXXXXX";

/* dir/name; two buffers in turn, for symlink(at(a), at(b)) */
static const char *at(const char *name) {
        static char p[2][256];
        static unsigned k;

        k ^= 1;
        snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
        return p[k];
}

static void write_bytes(const char *name, const char *data, size_t len) {
        int fd = open(at(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

        CHECK(fd >= 0, "create %s", name);
        if (fd < 0)
                return;
        CHECK(write(fd, data, len) == (ssize_t) len, "write %s", name);
        close(fd);
}

static int read_file(const char *name, ReadFlags flags, size_t max, char **ret, size_t *ret_len) {
        return read_small_file_full(at(name), flags, max, ret, ret_len);
}

static void test_regular(void) {
        _cleanup_free_ char *a = NULL, *b = NULL, *big = NULL;
        size_t n = 0, i;

        write_bytes("file", "a\0b\n", 4);
        CHECK_EQ_INT(read_file("file", 0, 100, &a, &n), 0);
        CHECK(a && n == 4 && memcmp(a, "a\0b\n", 5) == 0, "content (%zu bytes)", n);

        write_bytes("empty", "", 0);
        CHECK_EQ_INT(read_file("empty", READ_NOFOLLOW, 100, &b, &n), 0);
        CHECK(b && n == 0 && b[0] == '\0', "empty file");

        big = malloc(40000);
        CHECK(big, "malloc");
        if (!big)
                return;
        memset(big, 'x', 40000);
        write_bytes("big", big, 40000);
        CHECK_EQ_INT(read_file("big", 0, 39999, &a, &i), -EFBIG);
        CHECK_EQ_INT(read_file("missing", 0, 100, &a, &i), -ENOENT);
        CHECK(strcmp(input_error_to_string(-EFBIG), "is too large") == 0, "EFBIG reason");
}

static void test_not_regular(void) {
        char *x = NULL;
        size_t n;
        int fd;

        CHECK(mkdir(at("50-dir.conf"), 0755) == 0, "mkdir");
        CHECK(mkfifo(at("fifo"), 0644) == 0, "mkfifo");
        CHECK(symlink(at("fifo"), at("link-to-fifo")) == 0, "symlink");
        CHECK(symlink("/dev/null", at("link-to-null")) == 0, "symlink");

        /* A FIFO without a writer: refused at once, not waited on. */
        alarm(5);
        CHECK_EQ_INT(read_file("fifo", 0, 100, &x, &n), -EBADFD);
        CHECK_EQ_INT(read_file("link-to-fifo", 0, 100, &x, &n), -EBADFD);
        CHECK_EQ_INT(open_input(at("fifo"), READ_NOFOLLOW), -EBADFD);
        alarm(0);
        CHECK(strstr(input_error_to_string(-EBADFD), "not a regular file (a FIFO"), "FIFO reason: %s",
              input_error_to_string(-EBADFD));

        /* A directory: not "Input/output error". */
        CHECK_EQ_INT(read_file("50-dir.conf", 0, 100, &x, &n), -EISDIR);
        CHECK(strcmp(input_error_to_string(-EISDIR), "is a directory, not a file") == 0, "directory reason");

        /* A socket: open() fails with ENXIO, which is no reason to give
         * ("No such device or address"): it is not a regular file. */
        {
                struct sockaddr_un sa = { .sun_family = AF_UNIX };
                int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

                CHECK(s >= 0, "socket");
                snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", at("50-socket.conf"));
                CHECK(s >= 0 && bind(s, (struct sockaddr *) &sa, sizeof(sa)) == 0, "bind");
                if (s >= 0)
                        close(s);
                CHECK(symlink(at("50-socket.conf"), at("link-to-socket")) == 0, "symlink");
                CHECK_EQ_INT(read_file("50-socket.conf", 0, 100, &x, &n), -EBADFD);
                CHECK_EQ_INT(read_file("50-socket.conf", READ_NOFOLLOW, 100, &x, &n), -EBADFD);
                CHECK_EQ_INT(read_file("link-to-socket", 0, 100, &x, &n), -EBADFD);
                CHECK_EQ_INT(read_file("link-to-socket", READ_NOFOLLOW, 100, &x, &n), -ELOOP);
        }

        /* A device node, also through a symbolic link. */
        CHECK_EQ_INT(read_small_file_full("/dev/null", 0, 100, &x, &n), -EBADFD);
        CHECK_EQ_INT(read_file("link-to-null", 0, 100, &x, &n), -EBADFD);

        /* READ_NOFOLLOW: a symbolic link is refused even to a regular file. */
        CHECK(symlink(at("file"), at("link-to-file")) == 0, "symlink");
        CHECK_EQ_INT(read_file("link-to-file", READ_NOFOLLOW, 100, &x, &n), -ELOOP);
        CHECK(strstr(input_error_to_string(-ELOOP), "symbolic link"), "link reason");
        CHECK_EQ_INT(read_file("link-to-file", 0, 100, &x, &n), 0);
        free(x);
        x = NULL;

        /* open_input() hands out the fd of a regular file. */
        fd = open_input(at("file"), READ_NOFOLLOW);
        CHECK(fd >= 0, "open_input: %d", fd);
        if (fd >= 0)
                close(fd);
        CHECK(x == NULL, "a refused read set *ret");
}

/* write_file_atomic() replaces a regular file, or creates one; anything
 * else at the path is refused and left as it was, and no temporary file
 * is left behind. */
static void test_write_atomic(void) {
        _cleanup_free_ char *x = NULL;
        struct stat st;
        size_t n;

        CHECK(mkdir(at("w"), 0755) == 0, "mkdir");
        CHECK_EQ_INT(write_file_atomic(at("w/new"), "one\n", 0640), 0);
        CHECK_EQ_INT(write_file_atomic(at("w/new"), "two\n", 0640), 0);
        CHECK_EQ_INT(read_file("w/new", READ_NOFOLLOW, 100, &x, &n), 0);
        CHECK(x && strcmp(x, "two\n") == 0, "content '%s'", x ?: "");
        CHECK(stat(at("w/new"), &st) == 0 && (st.st_mode & 07777) == 0640, "mode %o", (unsigned) st.st_mode);

        CHECK(mkfifo(at("w/fifo"), 0644) == 0, "mkfifo");
        CHECK(mkdir(at("w/dir"), 0755) == 0, "mkdir");
        CHECK(symlink(at("w/new"), at("w/link")) == 0, "symlink");
        CHECK(symlink(at("w/absent"), at("w/dangling")) == 0, "symlink");
        CHECK_EQ_INT(write_file_atomic(at("w/fifo"), "x\n", 0644), -EBADFD);
        CHECK_EQ_INT(write_file_atomic(at("w/dir"), "x\n", 0644), -EISDIR);
        CHECK_EQ_INT(write_file_atomic(at("w/link"), "x\n", 0644), -ELOOP);
        CHECK_EQ_INT(write_file_atomic(at("w/dangling"), "x\n", 0644), -ELOOP);
        CHECK(lstat(at("w/fifo"), &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO was replaced");
        CHECK(lstat(at("w/dir"), &st) == 0 && S_ISDIR(st.st_mode), "the directory was replaced");
        CHECK(lstat(at("w/link"), &st) == 0 && S_ISLNK(st.st_mode), "the link was replaced");
        CHECK(lstat(at("w/absent"), &st) < 0 && errno == ENOENT, "a dangling link's target was created");
        free(x);
        x = NULL;
        CHECK_EQ_INT(read_file("w/new", 0, 100, &x, &n), 0);
        CHECK(x && strcmp(x, "two\n") == 0, "the link's target was written: '%s'", x ?: "");

        /* As root a device node can be made here (never in /dev: the
         * code before the check replaced it). */
        if (stat("/dev/full", &st) == 0 && mknod(at("w/full"), S_IFCHR | 0600, st.st_rdev) == 0) {
                CHECK_EQ_INT(write_file_atomic(at("w/full"), "x\n", 0644), -EBADFD);
                CHECK(lstat(at("w/full"), &st) == 0 && S_ISCHR(st.st_mode), "the device node was replaced");
                CHECK(unlink(at("w/full")) == 0, "unlink");
        } else
                printf("test-fileio: skipped the device node case (mknod: %m)\n");

        /* new, fifo, dir, link, dangling: no temporary left */
        {
                DIR *d = opendir(at("w"));
                struct dirent *de;
                unsigned k = 0;

                CHECK(d != NULL, "opendir");
                while (d && (de = readdir(d)))
                        k += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
                CHECK(d && k == 5, "%u entries", k);
                if (d)
                        closedir(d);
        }
}

int main(void) {
        char cmd[128];

        CHECK(mkdtemp(dir), "mkdtemp");
        test_regular();
        test_not_regular();
        test_write_atomic();
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
        (void) !system(cmd);
        return test_result("test-fileio");
}
