/* A program pushed to the virtual phone and run as the shell user, trying what a hostile app would
 * against the paths the phone's services open (device_tests/test_vphone_escape.py):
 *   probe attack VICTIM PATH...   plant a symlink (to VICTIM), a hard link, a FIFO, a device node, a
 *                                 renamed-over symlink and a new file at each PATH; try user and mount
 *                                 namespaces and /proc/1/{root,cwd}. One line per try: OP PATH ok|ERRNO
 *   probe race VICTIM DIR STOP    until STOP exists, rename a symlink to VICTIM, a FIFO and a hard-linked
 *                                 file over DIR/battery_ctl, over and over; prints "racing",
 *                                 then "raced N" */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
static void say(const char *op, const char *path, int rc) {
  printf("%s %s %s\n", op, path, rc == 0 ? "ok" : strerrorname_np(errno));
}
int main(int argc, char **argv) {
  const char *victim = argv[2];
  if (strcmp(argv[1], "race") == 0) {           /* race VICTIM DIR STOPFILE */
    char lnk[512], fifo[512], hard[512], ctl[512];
    snprintf(lnk, sizeof lnk, "%s/.l", argv[3]); snprintf(fifo, sizeof fifo, "%s/.f", argv[3]);
    snprintf(hard, sizeof hard, "%s/.h", argv[3]); snprintf(ctl, sizeof ctl, "%s/battery_ctl", argv[3]);
    long n = 0;
    printf("racing\n");
    fflush(stdout);
    while (access(argv[4], F_OK) != 0) {
      symlink(victim, lnk); rename(lnk, ctl);
      mkfifo(fifo, 0666); rename(fifo, ctl);
      int fd = open(lnk, O_CREAT | O_WRONLY | O_TRUNC, 0666);
      if (fd >= 0) { write(fd, "level=5\n", 8); close(fd); }
      link(lnk, hard); rename(lnk, ctl); unlink(hard);
      n++;
    }
    unlink(ctl);
    printf("raced %ld\n", n);
    return 0;
  }
  /* attack VICTIM PATH...: every way to plant something at each PATH */
  for (int i = 3; i < argc; i++) {
    const char *p = argv[i];
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s.new", p);
    unlink(tmp);
    say("symlink", p, symlink(victim, p));
    say("link", p, link("/system/etc/passwd", p));
    say("mkfifo", p, mkfifo(p, 0666));
    say("mknod", p, mknod(p, S_IFCHR | 0666, makedev(1, 3)));
    say("rename", p, symlink(victim, tmp) == 0 ? rename(tmp, p) : -1);
    unlink(tmp);
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK, 0666);
    say("open-write", p, fd < 0 ? -1 : 0);
    if (fd >= 0) close(fd);
  }
  say("unshare-user", "-", unshare(CLONE_NEWUSER));
  say("unshare-mount", "-", unshare(CLONE_NEWNS));
  say("open", "/proc/1/root", open("/proc/1/root/", O_RDONLY | O_DIRECTORY) < 0 ? -1 : 0);
  say("open", "/proc/1/cwd", open("/proc/1/cwd/", O_RDONLY | O_DIRECTORY) < 0 ? -1 : 0);
  return 0;
}
