"""Which directories of a work tree changed since the last request, from inotify.

Started by a workspace's snapshot process inside its sandbox, in the work tree. Node has no
inotify of its own that reports a lost event queue (libuv drops IN_Q_OVERFLOW), so this reads
the kernel's events itself, through ctypes. One JSON request per line on stdin, one answer per
line on stdout:

  {"changes": true}               -> {"dirty": [dirs], "lost": [dirs], "overflow": bool}
  {"watch": [dirs], "unwatch": [dirs]} -> {"watched": [dirs], "lost": [dirs]} or {"full": true}

Directories are paths from the work tree's root ("" is the root). A dirty directory had an entry
created, deleted, moved, written or changed in its attributes; a lost one is no longer watched
(deleted, moved, or its events were lost). Events are read only when asked, so the kernel's queue
holds a step's events; when it overflows, every watch is dropped and the answer says so.
"""

import ctypes
import json
import os
import struct
import sys

IN_MODIFY = 0x2
IN_ATTRIB = 0x4
IN_MOVED_FROM = 0x40
IN_MOVED_TO = 0x80
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_DELETE_SELF = 0x400
IN_MOVE_SELF = 0x800
IN_Q_OVERFLOW = 0x4000
IN_IGNORED = 0x8000
IN_ONLYDIR = 0x1000000
IN_DONT_FOLLOW = 0x2000000
IN_ISDIR = 0x40000000
IN_NONBLOCK = 0o4000
IN_CLOEXEC = 0o2000000
ENOSPC = 28
ENOMEM = 12
EVENTS = (
    IN_MODIFY | IN_ATTRIB | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
    | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW
)
EVENT_HEADER = struct.Struct("iIII")
# One workspace may not take more of the user's watches (fs.inotify.max_user_watches) than this.
LIMIT = int(os.environ.get("ATELIER_WATCH_LIMIT", "10000"))

libc = ctypes.CDLL(None, use_errno=True)
root = os.getcwdb()
fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
if fd < 0:
    sys.exit(1)
by_wd = {}
by_path = {}


class Full(Exception):
    pass


def full_path(relative):
    return os.path.join(root, relative.encode("utf-8")) if relative else root


def add(relative, lost):
    if relative not in by_path and len(by_path) >= LIMIT:
        raise Full()
    wd = libc.inotify_add_watch(fd, full_path(relative), EVENTS)
    if wd < 0:
        if ctypes.get_errno() in (ENOSPC, ENOMEM):
            raise Full()
        return False  # Gone, or not a directory now: the snapshot reads it again.
    previous = by_wd.get(wd)
    if previous is not None and previous != relative:
        # The same directory under a new name, moved while its events were lost.
        del by_path[previous]
        lost.add(previous)
    by_wd[wd] = relative
    by_path[relative] = wd
    return True


def remove(relative):
    wd = by_path.pop(relative, None)
    if wd is not None:
        del by_wd[wd]
        libc.inotify_rm_watch(fd, wd)


def remove_below(relative, lost):
    prefix = relative + "/" if relative else ""
    for path in [p for p in by_path if p == relative or p.startswith(prefix)]:
        remove(path)
        lost.add(path)


def changes():
    dirty, lost, overflow = set(), set(), False
    while True:
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            break
        offset = 0
        while offset < len(data):
            wd, mask, _cookie, length = EVENT_HEADER.unpack_from(data, offset)
            name = data[offset + 16 : offset + 16 + length].rstrip(b"\0").decode("utf-8", "replace")
            offset += 16 + length
            if mask & IN_Q_OVERFLOW:
                overflow = True
                continue
            path = by_wd.get(wd)
            if path is None:
                continue  # A watch already removed.
            if mask & IN_IGNORED:
                del by_wd[wd]
                if by_path.get(path) == wd:
                    del by_path[path]
                lost.add(path)
                continue
            dirty.add(path)
            if mask & IN_MOVE_SELF:
                remove_below(path, lost)
            elif mask & IN_ISDIR and mask & IN_MOVED_FROM:
                remove_below(f"{path}/{name}" if path else name, lost)
    if overflow:
        remove_below("", lost)
    return {"dirty": sorted(dirty), "lost": sorted(lost), "overflow": overflow}


def watch(added, removed):
    lost = set()
    for relative in removed:
        remove(relative)
    try:
        watched = [relative for relative in added if add(relative, lost)]
    except Full:
        return {"full": True}
    return {"watched": watched, "lost": sorted(lost)}


for line in sys.stdin.buffer:
    request = json.loads(line)
    answer = changes() if "changes" in request else watch(request.get("watch", []), request.get("unwatch", []))
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
