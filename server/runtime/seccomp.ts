// A seccomp filter for sandboxed processes (bubblewrap's --seccomp takes it as raw BPF): the
// calls a workspace never needs and that reach past it are refused with EPERM, whatever the
// process's privileges. No library compiles classic BPF in Node; the program is a list of
// comparisons, built here from the kernel's numbers (asm/unistd_64.h, asm-generic/unistd.h).

/** Calls refused outright: mounting, new and other namespaces, kernel keyrings, modules, BPF, perf, userfaultfd, kexec, swap, reboot, handles to arbitrary inodes. */
const REFUSED = [
  'mount',
  'umount2',
  'pivot_root',
  'fsopen',
  'fsconfig',
  'fsmount',
  'move_mount',
  'open_tree',
  'mount_setattr',
  'setns',
  'keyctl',
  'add_key',
  'request_key',
  'bpf',
  'perf_event_open',
  'userfaultfd',
  'kexec_load',
  'kexec_file_load',
  'init_module',
  'finit_module',
  'delete_module',
  'open_by_handle_at',
  'name_to_handle_at',
  'swapon',
  'swapoff',
  'reboot',
  'acct',
  'quotactl',
  'syslog',
  'vhangup',
] as const;

type Call = (typeof REFUSED)[number] | 'clone' | 'unshare' | 'clone3';

interface Architecture {
  /** AUDIT_ARCH_* as seccomp_data.arch carries it. */
  audit: number;
  numbers: Record<Call, number>;
  /** x86_64's x32 calls set this bit: refused, as no workspace uses that ABI. */
  x32Bit?: number;
}

const X86_64: Architecture = {
  audit: 0xc000003e,
  x32Bit: 0x40000000,
  numbers: {
    mount: 165,
    umount2: 166,
    pivot_root: 155,
    fsopen: 430,
    fsconfig: 431,
    fsmount: 432,
    move_mount: 429,
    open_tree: 428,
    mount_setattr: 442,
    setns: 308,
    keyctl: 250,
    add_key: 248,
    request_key: 249,
    bpf: 321,
    perf_event_open: 298,
    userfaultfd: 323,
    kexec_load: 246,
    kexec_file_load: 320,
    init_module: 175,
    finit_module: 313,
    delete_module: 176,
    open_by_handle_at: 304,
    name_to_handle_at: 303,
    swapon: 167,
    swapoff: 168,
    reboot: 169,
    acct: 163,
    quotactl: 179,
    syslog: 103,
    vhangup: 153,
    clone: 56,
    unshare: 272,
    clone3: 435,
  },
};

const AARCH64: Architecture = {
  audit: 0xc00000b7,
  numbers: {
    mount: 40,
    umount2: 39,
    pivot_root: 41,
    fsopen: 430,
    fsconfig: 431,
    fsmount: 432,
    move_mount: 429,
    open_tree: 428,
    mount_setattr: 442,
    setns: 268,
    keyctl: 219,
    add_key: 217,
    request_key: 218,
    bpf: 280,
    perf_event_open: 241,
    userfaultfd: 282,
    kexec_load: 104,
    kexec_file_load: 294,
    init_module: 105,
    finit_module: 273,
    delete_module: 106,
    open_by_handle_at: 265,
    name_to_handle_at: 264,
    swapon: 224,
    swapoff: 225,
    reboot: 142,
    acct: 89,
    quotactl: 60,
    syslog: 116,
    vhangup: 58,
    clone: 220,
    unshare: 97,
    clone3: 435,
  },
};

/** CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME: any new namespace. */
const NEW_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x80;

const EPERM = 1;
const ENOSYS = 38;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
// Classic BPF opcodes.
const LD_W_ABS = 0x20;
const JEQ = 0x15;
const JGE = 0x35;
const JSET = 0x45;
const RET = 0x06;
// Offsets in struct seccomp_data: nr, arch, then args[0]'s low word (both architectures are little-endian).
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;

type Label = 'allow' | 'deny' | 'enosys' | 'namespaces' | null;
interface Instruction {
  code: number;
  k: number;
  /** Where a comparison goes when true / false (null: the next instruction). */
  whenTrue?: Label;
  whenFalse?: Label;
  label?: Label;
}

/**
 * The filter for the machine's architecture, as bytes (struct sock_filter, 8 each), or null
 * where it is not known here (the sandbox then runs without it, which the start log says).
 */
export function seccompFilter(arch: string = process.arch): Buffer | null {
  const target = arch === 'x64' ? X86_64 : arch === 'arm64' ? AARCH64 : null;
  if (!target) return null;
  const program: Instruction[] = [
    { code: LD_W_ABS, k: ARCH },
    // A call through another ABI (i386's int 0x80 on x86_64) would bypass the numbers below.
    { code: JEQ, k: target.audit, whenTrue: null, whenFalse: 'deny' },
    { code: LD_W_ABS, k: NR },
    ...(target.x32Bit ? [{ code: JGE, k: target.x32Bit, whenTrue: 'deny', whenFalse: null } as Instruction] : []),
    ...REFUSED.map((call): Instruction => ({ code: JEQ, k: target.numbers[call], whenTrue: 'deny', whenFalse: null })),
    // clone3 passes its flags in memory a filter cannot read: ENOSYS makes the C library use clone.
    { code: JEQ, k: target.numbers.clone3, whenTrue: 'enosys', whenFalse: null },
    { code: JEQ, k: target.numbers.clone, whenTrue: 'namespaces', whenFalse: null },
    { code: JEQ, k: target.numbers.unshare, whenTrue: 'namespaces', whenFalse: 'allow' },
    { label: 'namespaces', code: LD_W_ABS, k: ARG0_LOW },
    { code: JSET, k: NEW_NAMESPACES, whenTrue: 'deny', whenFalse: 'allow' },
    { label: 'allow', code: RET, k: RET_ALLOW },
    { label: 'deny', code: RET, k: RET_ERRNO | EPERM },
    { label: 'enosys', code: RET, k: RET_ERRNO | ENOSYS },
  ];
  const at = new Map(program.flatMap((instruction, index) => (instruction.label ? [[instruction.label, index]] : [])));
  const jump = (from: number, to: Label | undefined) => {
    if (to === null || to === undefined) return 0;
    const offset = (at.get(to) as number) - from - 1;
    if (offset < 0 || offset > 255) throw new Error(`seccomp jump out of range: ${offset}`);
    return offset;
  };
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((instruction, index) => {
    bytes.writeUInt16LE(instruction.code, index * 8);
    bytes.writeUInt8(jump(index, instruction.whenTrue), index * 8 + 2);
    bytes.writeUInt8(jump(index, instruction.whenFalse), index * 8 + 3);
    bytes.writeUInt32LE(instruction.k >>> 0, index * 8 + 4);
  });
  return bytes;
}
