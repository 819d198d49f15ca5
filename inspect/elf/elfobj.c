/*
 * Reading one ELF object with libelf; see elfobj.h. The dynamic array is
 * found through PT_DYNAMIC and its addresses mapped through PT_LOAD, as
 * ld.so does, so section-stripped files work (docs/formats/elf-loader.md §1).
 */
#include "elfobj.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "mapguard.h"
#include "strbuf.h"
#include "symver.h"
#include "xalloc.h"

static void where_off(char *buf, size_t n, const char *what, uint64_t off)
{
	pt_fmt_trunc(buf, n, "%s at offset 0x%llx", what, (unsigned long long)off);
}

/* File offset of vaddr through the PT_LOAD segments; *avail gets the bytes left in that segment. */
static int vaddr_to_off(Elf *elf, size_t phnum, uint64_t size, uint64_t vaddr, uint64_t *off,
			uint64_t *avail)
{
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (vaddr < ph.p_vaddr || vaddr - ph.p_vaddr >= ph.p_filesz)
			continue;
		*off = ph.p_offset + (vaddr - ph.p_vaddr);
		if (*off >= size)
			return -1;
		*avail = ph.p_filesz - (vaddr - ph.p_vaddr);
		if (*avail > size - *off)
			*avail = size - *off;
		return 0;
	}
	return -1;
}

static const char *dstr(const char *strtab, size_t strsz, uint64_t off)
{
	if (!strtab || off >= strsz || !memchr(strtab + off, '\0', strsz - off))
		return NULL;
	return strtab + off;
}

static void read_build_id(struct elfobj *o, Elf *elf, size_t phnum)
{
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		if (ph.p_offset > o->size || ph.p_filesz > o->size - ph.p_offset)
			continue;
		d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz,
					 ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
		if (!d)
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)d->d_buf + name_off, "GNU", 4) && nh.n_descsz > 0 &&
			    nh.n_descsz <= sizeof(o->build_id)) {
				memcpy(o->build_id, (char *)d->d_buf + desc_off, nh.n_descsz);
				o->build_id_len = nh.n_descsz;
				return;
			}
		}
	}
}

static void add_section(struct elfobj *o, size_t *alloc, const char *name, const GElf_Shdr *sh,
			size_t index)
{
	struct elf_section *s;

	PT_GROW(o->sections, o->n_sections, *alloc);
	s = &o->sections[o->n_sections++];
	s->name = pt_xstrdup(name);
	s->type = sh->sh_type;
	s->flags = sh->sh_flags;
	s->addr = sh->sh_addr;
	s->offset = sh->sh_offset;
	s->size = sh->sh_size;
	s->align = sh->sh_addralign;
	s->link = sh->sh_link;
	s->index = index;
}

/* Section headers are optional for ld.so, so everything here is best effort. */
static void read_sections(struct elfobj *o, Elf *elf)
{
	size_t shstrndx, sec_alloc = 0;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		add_section(o, &sec_alloc, name, &sh, elf_ndxscn(scn));
		if ((!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info")) &&
		    sh.sh_type != SHT_NOBITS && sh.sh_size > 0)
			o->has_debug_info = true;
		if (!o->debuglink && !strcmp(name, ".gnu_debuglink") && sh.sh_type != SHT_NOBITS &&
		    sh.sh_offset < o->size && sh.sh_size <= o->size - sh.sh_offset) {
			Elf_Data *d = elf_getdata(scn, NULL);

			if (d && d->d_buf && d->d_size > 0 && memchr(d->d_buf, '\0', d->d_size))
				o->debuglink = pt_xstrdup(d->d_buf);
		}
	}
}

struct dynvals {
	uint64_t strtab, strsz, verneed, verneednum, verdef, verdefnum, flags_1;
	int have_strtab;
	uint64_t rpath, runpath, soname;	/* string offsets */
	int have_rpath, have_runpath, have_soname;
	uint64_t *needed;	/* string offsets, in tag order */
	size_t n_needed, alloc_needed;
};

/* One entry of the dynamic array. Single-valued tags: the last one wins, as in get-dynamic-info.h. */
static void dyn_take(struct dynvals *dv, const GElf_Dyn *e)
{
	switch (e->d_tag) {
	case DT_NEEDED:
		PT_GROW(dv->needed, dv->n_needed, dv->alloc_needed);
		dv->needed[dv->n_needed++] = e->d_un.d_val;
		break;
	case DT_SONAME: dv->soname = e->d_un.d_val; dv->have_soname = 1; break;
	case DT_RPATH: dv->rpath = e->d_un.d_val; dv->have_rpath = 1; break;
	case DT_RUNPATH: dv->runpath = e->d_un.d_val; dv->have_runpath = 1; break;
	case DT_STRTAB: dv->strtab = e->d_un.d_ptr; dv->have_strtab = 1; break;
	case DT_STRSZ: dv->strsz = e->d_un.d_val; break;
	case DT_FLAGS_1: dv->flags_1 = e->d_un.d_val; break;
	case DT_VERNEED: dv->verneed = e->d_un.d_ptr; break;
	case DT_VERNEEDNUM: dv->verneednum = e->d_un.d_val; break;
	case DT_VERDEF: dv->verdef = e->d_un.d_ptr; break;
	case DT_VERDEFNUM: dv->verdefnum = e->d_un.d_val; break;
	default: break;
	}
}

static void read_versions(struct elfobj *o, Elf *elf, size_t phnum, const struct dynvals *dv,
			  const char *strtab, size_t strsz, struct pt_diag *diag)
{
	bool be = o->data == ELFDATA2MSB;
	uint64_t off, avail;
	Elf_Data *d;

	if (dv->verneed && dv->verneednum) {
		if (vaddr_to_off(elf, phnum, o->size, dv->verneed, &off, &avail) == 0 &&
		    (d = elf_getdata_rawchunk(elf, (int64_t)off, avail, ELF_T_BYTE)))
			symver_parse_verneed(d->d_buf, d->d_size, dv->verneednum, be, strtab, strsz,
					     &o->verneed, &o->n_verneed, o->path, diag);
		else
			pt_diag_add(diag, PT_SEV_WARNING, o->path, NULL,
				    "DT_VERNEED address 0x%llx is outside the file",
				    (unsigned long long)dv->verneed);
	}
	if (dv->verdef && dv->verdefnum) {
		if (vaddr_to_off(elf, phnum, o->size, dv->verdef, &off, &avail) == 0 &&
		    (d = elf_getdata_rawchunk(elf, (int64_t)off, avail, ELF_T_BYTE))) {
			o->has_verdef = symver_parse_verdef(d->d_buf, d->d_size, dv->verdefnum, be,
							    strtab, strsz, &o->verdef, &o->n_verdef,
							    o->path, diag) > 0;
		} else {
			pt_diag_add(diag, PT_SEV_WARNING, o->path, NULL,
				    "DT_VERDEF address 0x%llx is outside the file",
				    (unsigned long long)dv->verdef);
		}
	}
}

static int read_dynamic(struct elfobj *o, Elf *elf, size_t phnum, const GElf_Phdr *dyn,
			struct pt_diag *diag)
{
	struct dynvals dv = { 0 };
	char where[64];
	Elf_Data *d;

	if (dyn->p_offset > o->size || dyn->p_filesz > o->size - dyn->p_offset) {
		where_off(where, sizeof(where), "dynamic segment", dyn->p_offset);
		pt_diag_add(diag, PT_SEV_WARNING, o->path, where, "truncated: the file ends first");
		return -1;
	}
	d = elf_getdata_rawchunk(elf, (int64_t)dyn->p_offset, dyn->p_filesz, ELF_T_DYN);
	if (!d) {
		where_off(where, sizeof(where), "dynamic segment", dyn->p_offset);
		pt_diag_add(diag, PT_SEV_WARNING, o->path, where, "elf_getdata_rawchunk: %s",
			    elf_errmsg(-1));
		return -1;
	}
	size_t cnt = d->d_size / (o->cls == ELFCLASS32 ? sizeof(Elf32_Dyn) : sizeof(Elf64_Dyn));
	for (size_t i = 0; i < cnt; i++) {
		GElf_Dyn e;

		if (!gelf_getdyn(d, (int)i, &e) || e.d_tag == DT_NULL)
			break;
		dyn_take(&dv, &e);
	}
	o->flags_1 = dv.flags_1;

	const char *strtab = NULL;
	size_t strsz = 0;
	uint64_t soff, avail;
	if (dv.have_strtab && vaddr_to_off(elf, phnum, o->size, dv.strtab, &soff, &avail) == 0) {
		/* Never trust DT_STRSZ beyond what the segment and the file hold. */
		strsz = dv.strsz < avail ? dv.strsz : avail;
		Elf_Data *sd = elf_getdata_rawchunk(elf, (int64_t)soff, strsz, ELF_T_BYTE);
		strtab = sd ? sd->d_buf : NULL;
		if (!sd)
			strsz = 0;
	} else if (dv.n_needed || dv.have_soname || dv.have_rpath || dv.have_runpath) {
		pt_diag_add(diag, PT_SEV_WARNING, o->path, NULL,
			    "DT_STRTAB address 0x%llx is outside the file's loadable segments",
			    (unsigned long long)dv.strtab);
	}

#define DSTR(field, off, tag)                                                            \
	do {                                                                             \
		const char *s_ = dstr(strtab, strsz, (off));                             \
		if (s_)                                                                  \
			(field) = pt_xstrdup(s_);                                        \
		else if (strtab)                                                         \
			pt_diag_add(diag, PT_SEV_WARNING, o->path, NULL,                     \
				    "%s string offset 0x%llx is outside the string table", \
				    (tag), (unsigned long long)(off));                   \
	} while (0)

	o->needed = pt_xcalloc(dv.n_needed ? dv.n_needed : 1, sizeof(char *));
	for (size_t i = 0; i < dv.n_needed; i++) {
		char *s = NULL;
		DSTR(s, dv.needed[i], "DT_NEEDED");
		if (s)
			o->needed[o->n_needed++] = s;
	}
	if (dv.have_soname)
		DSTR(o->soname, dv.soname, "DT_SONAME");
	if (dv.have_rpath)
		DSTR(o->rpath, dv.rpath, "DT_RPATH");
	if (dv.have_runpath)
		DSTR(o->runpath, dv.runpath, "DT_RUNPATH");
#undef DSTR
	free(dv.needed);
	read_versions(o, elf, phnum, &dv, strtab, strsz, diag);
	return 0;
}

/*
 * Why glibc's loader would refuse a file of this type with this header
 * (open_verify in elf/dl-load.c, its messages), or NULL. Only what does not
 * depend on the host: a file of another class or machine is for another
 * ld.so, not a broken one.
 */
static const char *ld_so_refusal(const GElf_Ehdr *eh, const unsigned char *ident, uint64_t size)
{
	size_t phentsize = ident[EI_CLASS] == ELFCLASS32 ? sizeof(Elf32_Phdr) : sizeof(Elf64_Phdr);

	if (ident[EI_VERSION] != EV_CURRENT)
		return "ELF file version ident does not match current one";
	if (ident[EI_OSABI] != ELFOSABI_SYSV && ident[EI_OSABI] != ELFOSABI_GNU)
		return "ELF file OS ABI invalid";
	/* glibc 2.36: LIBC_ABI_MAX is 3 (ABI tags 0-2 for GNU: unique symbols, absolute). */
	if ((ident[EI_OSABI] == ELFOSABI_SYSV && ident[EI_ABIVERSION] != 0) ||
	    (ident[EI_OSABI] == ELFOSABI_GNU && ident[EI_ABIVERSION] >= 3))
		return "ELF file ABI version invalid";
	for (int i = EI_PAD; i < EI_NIDENT; i++)
		if (ident[i])
			return "nonzero padding in e_ident";
	if (eh->e_version != EV_CURRENT)
		return "ELF file version does not match current one";
	if (eh->e_phentsize != phentsize)
		return "ELF file's phentsize not the expected size";
	/* ld.so reads e_phnum headers as they are: PN_XNUM (0xffff) is not looked up elsewhere. */
	if (eh->e_phoff > size || (uint64_t)eh->e_phnum * phentsize > size - eh->e_phoff)
		return "cannot read file data (the program headers pass the end of the file)";
	return NULL;
}

static int elfobj_read(struct elfobj *o, Elf *elf, bool full, struct pt_diag *diag)
{
	GElf_Ehdr eh;
	size_t phnum;
	char where[64];
	const char *ident;

	if (elf_kind(elf) != ELF_K_ELF) {
		pt_diag_add(diag, PT_SEV_ERROR, o->path, NULL,
			    o->size < EI_NIDENT ? "not an ELF file (only %llu bytes)" : "not an ELF file",
			    (unsigned long long)o->size);
		return -1;
	}
	if (!gelf_getehdr(elf, &eh) || !(ident = elf_getident(elf, NULL))) {
		pt_diag_add(diag, PT_SEV_ERROR, o->path, "ELF header at offset 0x0",
			    "truncated or invalid: %s", elf_errmsg(-1));
		return -1;
	}
	o->cls = ident[EI_CLASS];
	o->data = ident[EI_DATA];
	o->osabi = (unsigned char)ident[EI_OSABI];
	o->abiversion = (unsigned char)ident[EI_ABIVERSION];
	o->type = eh.e_type;
	o->machine = eh.e_machine;

	if (elf_getphdrnum(elf, &phnum) != 0) {
		where_off(where, sizeof(where), "program header", eh.e_phoff);
		pt_diag_add(diag, PT_SEV_ERROR, o->path, where, "elf_getphdrnum: %s", elf_errmsg(-1));
		return -1;
	}
	/* libelf may report 0 program headers for a cut table: check the header's own count too. */
	if (eh.e_phnum != PN_XNUM && eh.e_phnum > phnum)
		phnum = eh.e_phnum;
	if (phnum && (eh.e_phoff > o->size ||
		      (uint64_t)phnum * eh.e_phentsize > o->size - eh.e_phoff)) {
		where_off(where, sizeof(where), "program header", eh.e_phoff);
		pt_diag_add(diag, PT_SEV_ERROR, o->path, where, "truncated program header table");
		return -1;
	}
	/* Objects and core files are not loaded; for the others, what ld.so would say (B13). */
	if (eh.e_type == ET_DYN || eh.e_type == ET_EXEC) {
		const char *why = ld_so_refusal(&eh, (const unsigned char *)ident, o->size);

		if (why) {
			o->refused = true;
			pt_diag_add(diag, PT_SEV_WARNING, o->path, "ELF header",
				    "ld.so refuses to load this file: %s", why);
		}
	}
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph)) {
			where_off(where, sizeof(where), "program header",
				  eh.e_phoff + i * eh.e_phentsize);
			pt_diag_add(diag, PT_SEV_ERROR, o->path, where, "gelf_getphdr: %s", elf_errmsg(-1));
			return -1;
		}
		if (ph.p_type == PT_INTERP && !o->interp && ph.p_offset < o->size &&
		    ph.p_filesz <= o->size - ph.p_offset && ph.p_filesz > 0) {
			Elf_Data *d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz,
							   ELF_T_BYTE);
			if (d && memchr(d->d_buf, '\0', d->d_size))
				o->interp = pt_xstrdup(d->d_buf);
		}
	}
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_DYNAMIC) {
			read_dynamic(o, elf, phnum, &ph, diag);
			break;
		}
	}
	if (!o->needed)
		o->needed = pt_xcalloc(1, sizeof(char *));
	if (full) {
		read_build_id(o, elf, phnum);
		read_sections(o, elf);
	}
	return 0;
}

static void elfobj_zero(struct elfobj *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->path = pt_xstrdup(path);
}

/*
 * Only a few scattered pages of each file are read (headers, the dynamic
 * section, some strings): without this, each first touch of a cold page makes
 * the kernel read the 128 KB or more around it (mmap read-around), 47 MB from
 * disk for libtorch_cpu's 283 dependencies where 1 MB is needed.
 */
static void advise_random(Elf *elf)
{
	size_t n = 0;
	char *p = elf_rawfile(elf, &n);
	uintptr_t a = (uintptr_t)p, pg = (uintptr_t)sysconf(_SC_PAGESIZE);

	if (p && n && pg && a % pg == 0)
		madvise(p, n, MADV_RANDOM);
}

/* A SIGBUS while reading the mapping: the file shrank under us (mapguard.h). */
static void shrank(const struct elfobj *o, struct pt_diag *diag)
{
	struct stat st;

	if (o->fd >= 0 && fstat(o->fd, &st) == 0 && (uint64_t)st.st_size < o->size)
		pt_diag_add(diag, PT_SEV_ERROR, o->path, NULL,
			    "the file was truncated while it was read (%llu bytes, now %llu)",
			    (unsigned long long)o->size, (unsigned long long)st.st_size);
	else
		pt_diag_add(diag, PT_SEV_ERROR, o->path, NULL,
			    "the file could not be read (bus error on its mapping: truncated "
			    "while it was read?)");
}

void elfobj_shrank(const struct elfobj *o, struct pt_diag *diag)
{
	shrank(o, diag);
}


/*
 * The resolver's way in for a well-formed little-endian file (each of a
 * large library's hundreds of dependencies): the ELF header with the
 * program headers, PT_INTERP, the dynamic array, the version records and
 * the piece of the dynamic string table where the names are (GNU ld puts
 * them last), each read with one pread. A mapping costs, per page touched,
 * a fault that maps its neighbours too and their unmapping afterwards: more
 * than the few hundred bytes a dependency needs. Returns 0 with o filled,
 * or -1 for anything it does not take as it is (another byte order, a value
 * out of range, a record that would warn, a piece too large): the caller
 * then reads the file through libelf, which gives the diagnostics, so
 * damaged files are reported exactly as before.
 */
#define FAST_HEAD 4096		/* ELF header and program headers: one read */
#define FAST_MAX (256u << 10)	/* larger pieces go through libelf's mapping */

struct fast_file {
	int fd;
	uint64_t size;
	unsigned char head[FAST_HEAD];
	size_t n_head;
	GElf_Phdr *ph;
	size_t phnum;
	bool warm;		/* the head was in the page cache: so, most likely, is the rest */
};

/* n bytes at off into a new buffer (n <= FAST_MAX), or NULL when short or unreadable. */
static unsigned char *fast_read(const struct fast_file *f, uint64_t off, uint64_t n)
{
	unsigned char *b;
	size_t done = 0;

	if (n == 0 || n > FAST_MAX || off > f->size || n > f->size - off)
		return NULL;
	b = pt_xmalloc((size_t)n);
	while (done < n) {
		ssize_t r = pread(f->fd, b + done, (size_t)n - done, (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			free(b);
			return NULL;
		}
		done += (size_t)r;
	}
	return b;
}

static int fast_vaddr_to_off(const struct fast_file *f, uint64_t vaddr, uint64_t *off,
			     uint64_t *avail)
{
	for (size_t i = 0; i < f->phnum; i++) {
		const GElf_Phdr *ph = &f->ph[i];

		if (ph->p_type != PT_LOAD || vaddr < ph->p_vaddr || vaddr - ph->p_vaddr >= ph->p_filesz)
			continue;
		*off = ph->p_offset + (vaddr - ph->p_vaddr);
		if (*off >= f->size)
			return -1;
		*avail = ph->p_filesz - (vaddr - ph->p_vaddr);
		if (*avail > f->size - *off)
			*avail = f->size - *off;
		return 0;
	}
	return -1;
}

/*
 * The 2 KB at vaddr will be read soon (the first read of a version table):
 * start reading it. Not for a file whose head was in the page cache (one
 * system call per table saved).
 */
static void fast_hint(const struct fast_file *f, bool want, uint64_t vaddr)
{
	uint64_t off, avail;

	if (want && !f->warm && fast_vaddr_to_off(f, vaddr, &off, &avail) == 0)
		posix_fadvise(f->fd, (off_t)off, (off_t)(avail < 2048 ? avail : 2048),
			      POSIX_FADV_WILLNEED);
}

static int fast_header(struct elfobj *o, struct fast_file *f, GElf_Ehdr *eh)
{
	const unsigned char *h = f->head;
	bool is64;

	if (f->n_head < EI_NIDENT || memcmp(h, ELFMAG, SELFMAG) != 0 || h[EI_DATA] != ELFDATA2LSB ||
	    (h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64))
		return -1;
	is64 = h[EI_CLASS] == ELFCLASS64;
	memset(eh, 0, sizeof(*eh));
	memcpy(eh->e_ident, h, EI_NIDENT);
	/* The fields ld.so checks, from either class (the file's byte order is the host's). */
#define COPY_EHDR(T)                                                                   \
	do {                                                                           \
		T e;                                                                   \
		if (f->n_head < sizeof(e))                                             \
			return -1;                                                     \
		memcpy(&e, h, sizeof(e));                                              \
		eh->e_type = e.e_type;                                                 \
		eh->e_machine = e.e_machine;                                           \
		eh->e_version = e.e_version;                                           \
		eh->e_phoff = e.e_phoff;                                               \
		eh->e_phentsize = e.e_phentsize;                                       \
		eh->e_phnum = e.e_phnum;                                               \
	} while (0)
	if (is64)
		COPY_EHDR(Elf64_Ehdr);
	else
		COPY_EHDR(Elf32_Ehdr);
#undef COPY_EHDR
	o->cls = h[EI_CLASS];
	o->data = h[EI_DATA];
	o->osabi = h[EI_OSABI];
	o->abiversion = h[EI_ABIVERSION];
	o->type = eh->e_type;
	o->machine = eh->e_machine;
	/* Only what ld.so loads without a word: the rest is libelf's path, with its warnings. */
	if ((eh->e_type != ET_DYN && eh->e_type != ET_EXEC) || ld_so_refusal(eh, h, f->size) ||
	    eh->e_phnum == 0 || eh->e_phnum == PN_XNUM ||
	    eh->e_phentsize != (is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)) ||
	    eh->e_phoff > f->n_head || (uint64_t)eh->e_phnum * eh->e_phentsize > f->n_head - eh->e_phoff)
		return -1;
	f->phnum = eh->e_phnum;
	f->ph = pt_xcalloc(f->phnum, sizeof(*f->ph));
	for (size_t i = 0; i < f->phnum; i++) {
		const unsigned char *p = h + eh->e_phoff + i * eh->e_phentsize;
		GElf_Phdr *ph = &f->ph[i];

		if (is64) {
			Elf64_Phdr x;

			memcpy(&x, p, sizeof(x));
			*ph = x;
		} else {
			Elf32_Phdr x;

			memcpy(&x, p, sizeof(x));
			ph->p_type = x.p_type;
			ph->p_flags = x.p_flags;
			ph->p_offset = x.p_offset;
			ph->p_vaddr = x.p_vaddr;
			ph->p_paddr = x.p_paddr;
			ph->p_filesz = x.p_filesz;
			ph->p_memsz = x.p_memsz;
			ph->p_align = x.p_align;
		}
	}
	return 0;
}

/* The string at off of the piece [base, strsz) held in tab, or NULL. */
static const char *fast_str(const char *tab, uint64_t base, uint64_t strsz, uint64_t off)
{
	if (!tab || off < base || off >= strsz || !memchr(tab + (off - base), '\0', strsz - off))
		return NULL;
	return tab + (off - base);
}

/* Forget the version records read so far (to read them again, or another way). */
static void drop_verdef(struct elfobj *o)
{
	for (size_t i = 0; i < o->n_verdef; i++)
		free(o->verdef[i]);
	free(o->verdef);
	o->verdef = NULL;
	o->n_verdef = 0;
	o->has_verdef = false;
}

static void drop_versions(struct elfobj *o)
{
	symver_free_verneed(o->verneed, o->n_verneed);
	o->verneed = NULL;
	o->n_verneed = 0;
	drop_verdef(o);
}

static int fast_dynamic(struct elfobj *o, struct fast_file *f)
{
	const GElf_Phdr *dyn = NULL;
	struct dynvals dv = { 0 };
	uint64_t lo = UINT64_MAX, soff, avail, base;
	int rc = -1;
	size_t esz = o->cls == ELFCLASS32 ? sizeof(Elf32_Dyn) : sizeof(Elf64_Dyn);
	unsigned char *d = NULL, *vn = NULL, *vd = NULL;
	char *tab = NULL;
	uint64_t strsz = 0;
	struct pt_diag local;

	pt_diag_init(&local);
	for (size_t i = 0; i < f->phnum; i++) {
		const GElf_Phdr *ph = &f->ph[i];

		if (ph->p_type == PT_INTERP && !o->interp && ph->p_offset < f->size &&
		    ph->p_filesz <= f->size - ph->p_offset && ph->p_filesz > 0) {
			unsigned char *b = fast_read(f, ph->p_offset, ph->p_filesz);

			if (!b)
				goto out;
			if (memchr(b, '\0', ph->p_filesz))
				o->interp = pt_xstrdup((char *)b);
			free(b);
		}
		if (ph->p_type == PT_DYNAMIC && !dyn)
			dyn = ph;
	}
	if (!dyn) {
		rc = 0;
		goto out;
	}
	if (dyn->p_filesz % esz || !(d = fast_read(f, dyn->p_offset, dyn->p_filesz)))
		goto out;
	for (size_t i = 0; i < dyn->p_filesz / esz; i++) {
		GElf_Dyn e;

		if (o->cls == ELFCLASS32) {
			Elf32_Dyn x;

			memcpy(&x, d + i * esz, sizeof(x));
			e.d_tag = x.d_tag;
			e.d_un.d_val = x.d_un.d_val;
		} else {
			memcpy(&e, d + i * esz, sizeof(e));
		}
		if (e.d_tag == DT_NULL)
			break;
		dyn_take(&dv, &e);
	}
	o->flags_1 = dv.flags_1;
	for (size_t i = 0; i < dv.n_needed; i++)
		lo = dv.needed[i] < lo ? dv.needed[i] : lo;
	if (dv.have_soname && dv.soname < lo)
		lo = dv.soname;
	if (dv.have_rpath && dv.rpath < lo)
		lo = dv.rpath;
	if (dv.have_runpath && dv.runpath < lo)
		lo = dv.runpath;
	if (dv.have_strtab) {
		if (fast_vaddr_to_off(f, dv.strtab, &soff, &avail) != 0)
			goto out;
		strsz = dv.strsz < avail ? dv.strsz : avail;
		/* Version names come after the file names; a name before lo sends it to libelf. */
		if (lo >= strsz)
			lo = strsz > 1024 ? strsz - 1024 : 0;
		base = lo & ~(uint64_t)63;
		/*
		 * The names and both version tables are wanted now: ask for them
		 * together, so that a cold file costs one wait on the disk, not three.
		 */
		fast_hint(f, dv.verneed && dv.verneednum, dv.verneed);
		fast_hint(f, dv.verdef && dv.verdefnum, dv.verdef);
		if (strsz > base && !(tab = (char *)fast_read(f, soff + base, strsz - base)))
			goto out;
	} else if (dv.n_needed || dv.have_soname || dv.have_rpath || dv.have_runpath) {
		goto out;
	} else {
		base = 0;
	}

#define FAST_DSTR(field, off)                                                          \
	do {                                                                           \
		const char *s_ = fast_str(tab, base, strsz, (off));                    \
		if (!s_)                                                               \
			goto out;                                                      \
		(field) = pt_xstrdup(s_);                                              \
	} while (0)

	o->needed = pt_xcalloc(dv.n_needed ? dv.n_needed : 1, sizeof(char *));
	for (size_t i = 0; i < dv.n_needed; i++) {
		FAST_DSTR(o->needed[o->n_needed], dv.needed[i]);
		o->n_needed++;
	}
	if (dv.have_soname)
		FAST_DSTR(o->soname, dv.soname);
	if (dv.have_rpath)
		FAST_DSTR(o->rpath, dv.rpath);
	if (dv.have_runpath)
		FAST_DSTR(o->runpath, dv.runpath);
#undef FAST_DSTR
	/*
	 * The records are small (16 bytes each, a few dozen): read 2 KB, and
	 * 16 KB when the walk ran past that (its warning says so).
	 */
	if (dv.verneed && dv.verneednum) {
		if (fast_vaddr_to_off(f, dv.verneed, &soff, &avail) != 0)
			goto out;
		for (uint64_t n = avail < 2048 ? avail : 2048;; n = avail < 16384 ? avail : 16384) {
			if (!(vn = fast_read(f, soff, n)))
				goto out;
			symver_parse_verneed_at(vn, (size_t)n, dv.verneednum, false, tab, (size_t)base,
						(size_t)strsz, &o->verneed, &o->n_verneed, o->path,
						&local);
			free(vn);
			vn = NULL;
			if (!local.n || n >= 16384 || n == avail)
				break;
			drop_versions(o);
			pt_diag_release(&local);
			pt_diag_init(&local);
		}
	}
	if (dv.verdef && dv.verdefnum && !local.n) {
		if (fast_vaddr_to_off(f, dv.verdef, &soff, &avail) != 0)
			goto out;
		for (uint64_t n = avail < 2048 ? avail : 2048;; n = avail < 16384 ? avail : 16384) {
			if (!(vd = fast_read(f, soff, n)))
				goto out;
			o->has_verdef = symver_parse_verdef_at(vd, (size_t)n, dv.verdefnum, false, tab,
							       (size_t)base, (size_t)strsz, &o->verdef,
							       &o->n_verdef, o->path, &local) > 0;
			free(vd);
			vd = NULL;
			if (!local.n || n >= 16384 || n == avail)
				break;
			drop_verdef(o);	/* the Verneed records were read without a word */
			pt_diag_release(&local);
			pt_diag_init(&local);
		}
	}
	/* Any warning (a record past the piece read, a name before it): libelf's path decides. */
	rc = local.n ? -1 : 0;
out:
	pt_diag_release(&local);
	free(dv.needed);
	free(d);
	free(vn);
	free(vd);
	free(tab);
	return rc;
}

/* Everything fast_dynamic may have filled, for the way through libelf. */
static void fast_undo(struct elfobj *o)
{
	for (size_t i = 0; i < o->n_needed; i++)
		free(o->needed[i]);
	free(o->needed);
	o->needed = NULL;
	o->n_needed = 0;
	drop_versions(o);
	free(o->interp);
	free(o->soname);
	free(o->rpath);
	free(o->runpath);
	o->interp = o->soname = o->rpath = o->runpath = NULL;
	o->flags_1 = 0;
}

/*
 * head: the file's first n_head bytes when the caller has them (NULL: read
 * them); warm: they were in the page cache.
 */
static int read_fast(struct elfobj *o, const unsigned char *head, size_t n_head, bool warm)
{
	struct fast_file f = { .fd = o->fd, .size = o->size, .warm = warm };
	GElf_Ehdr eh;
	ssize_t n;
	int rc = -1;

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	return -1;	/* the structs are copied as they are in the file */
#endif
	if (head) {
		n = (ssize_t)(n_head < sizeof(f.head) ? n_head : sizeof(f.head));
		memcpy(f.head, head, (size_t)n);
	} else {
		do
			n = pread(o->fd, f.head, sizeof(f.head), 0);
		while (n < 0 && errno == EINTR);
	}
	if (n <= 0)
		return -1;
	f.n_head = (size_t)n;
	if (fast_header(o, &f, &eh) == 0 && fast_dynamic(o, &f) == 0)
		rc = 0;
	free(f.ph);
	if (rc != 0)
		fast_undo(o);
	else if (!o->needed)
		o->needed = pt_xcalloc(1, sizeof(char *));
	return rc;
}

static bool byte_cached(int fd, uint64_t off);

/*
 * A whole object (elfobj_open) whose first page is not in the page cache:
 * libelf would read the headers, the dynamic array, its strings and
 * version tables, then the section table and its names through the
 * mapping, one page fault after another (libtorch_cpu.so: 12-14 ms).
 * Ask for them in fewer rounds: the file's last 64 KB (GNU ld puts the
 * section table, .shstrtab and .gnu_debuglink there) with the header,
 * then what read_fast reads, in its rounds; its results are dropped.
 */
#define COLD_TAIL (64u << 10)

static void warm_up_cold(struct elfobj *o)
{
	if (byte_cached(o->fd, 0))
		return;
	if (o->size > COLD_TAIL)
		posix_fadvise(o->fd, (off_t)(o->size - COLD_TAIL), COLD_TAIL, POSIX_FADV_WILLNEED);
	read_fast(o, NULL, 0, false);
	fast_undo(o);
}

/* f: a candidate already open for path (taken over), or NULL to open it here. */
static int open_file(struct elfobj *o, const char *path, struct elfobj_file *f, bool full,
		     struct pt_diag *diag)
{
	struct pt_mapguard g;
	struct stat st;
	Elf *elf;

	elfobj_zero(o, path);
	elf_version(EV_CURRENT);
	if (f) {
		/* elfobj_loadable_fd checked it is a regular file. */
		o->fd = f->fd;
		f->fd = -1;
		o->size = f->size;
		o->dev = f->dev;
		o->ino = f->ino;
	} else {
		o->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (o->fd < 0 || fstat(o->fd, &st) != 0) {
			pt_diag_add(diag, PT_SEV_ERROR, path, NULL, "cannot open: %s",
				    strerror(errno));
			return -1;
		}
		if (!S_ISREG(st.st_mode)) {
			pt_diag_add(diag, PT_SEV_ERROR, path, NULL, "not a regular file");
			return -1;
		}
		o->size = (uint64_t)st.st_size;
		o->dev = st.st_dev;
		o->ino = st.st_ino;
	}
	if (!full && read_fast(o, f ? f->head : NULL, f ? f->n_head : 0, f && f->cached) == 0) {
		close(o->fd);
		o->fd = -1;
		return 0;
	}
	if (full)
		warm_up_cold(o);
	elf = elf_begin(o->fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		pt_diag_add(diag, PT_SEV_ERROR, path, NULL, "elf_begin: %s", elf_errmsg(-1));
		return -1;
	}
	o->elf = elf;
	if (PT_MAPGUARD_BEGIN(&g)) {
		shrank(o, diag);
		return -1;
	}
	advise_random(elf);
	if (elfobj_read(o, elf, full, diag) != 0) {
		pt_mapguard_end(&g);
		return -1;
	}
	pt_mapguard_end(&g);
	if (!full) {
		/*
		 * Everything is copied out: let the mapping go now, so the pages read
		 * from each of a tree's hundreds of files are not all resident at once.
		 */
		elf_end(elf);
		o->elf = NULL;
		close(o->fd);
		o->fd = -1;
	}
	return 0;
}

int elfobj_open(struct elfobj *o, const char *path, struct pt_diag *diag)
{
	return open_file(o, path, NULL, true, diag);
}

int elfobj_open_dynamic(struct elfobj *o, const char *path, struct pt_diag *diag)
{
	return open_file(o, path, NULL, false, diag);
}

int elfobj_open_dynamic_fd(struct elfobj *o, const char *path, struct elfobj_file *f,
			   struct pt_diag *diag)
{
	int r = open_file(o, path, f, false, diag);

	/* On success open_file closed it; on failure it is still o->fd. */
	if (o->fd >= 0) {
		close(o->fd);
		o->fd = -1;
	}
	return r;
}

int elfobj_open_mem(struct elfobj *o, const char *name, const void *buf, size_t len,
		    struct pt_diag *diag)
{
	Elf *elf;

	elfobj_zero(o, name);
	elf_version(EV_CURRENT);
	o->size = len;
	o->mem = buf;
	/* elf_memory wants a writable pointer but does not write with ELF_C_READ. */
	elf = elf_memory((char *)(uintptr_t)buf, len);
	if (!elf) {
		pt_diag_add(diag, PT_SEV_ERROR, name, NULL, "elf_memory: %s", elf_errmsg(-1));
		return -1;
	}
	o->elf = elf;
	return elfobj_read(o, elf, true, diag);
}

int elfobj_open_bytes(struct elfobj *o, const char *name, const void *buf, size_t len,
		      size_t max_len, struct pt_diag *diag)
{
	if (len > max_len) {
		elfobj_zero(o, name);
		pt_diag_add(diag, PT_SEV_ERROR, name, NULL,
			    "%zu bytes, more than the %zu read from memory: refused", len, max_len);
		return -1;
	}
	return elfobj_open_mem(o, name, buf, len, diag);
}

void elfobj_drop_bytes(struct elfobj *o)
{
	if (o->elf)
		elf_end(o->elf);
	o->elf = NULL;
	o->mem = NULL;
}

static void read_ahead_end(struct elfobj *o);

void elfobj_release(struct elfobj *o)
{
	read_ahead_end(o);
	if (o->elf)
		elf_end(o->elf);
	if (o->fd >= 0)
		close(o->fd);
	for (size_t i = 0; i < o->n_needed; i++)
		free(o->needed[i]);
	free(o->needed);
	symver_free_verneed(o->verneed, o->n_verneed);
	for (size_t i = 0; i < o->n_verdef; i++)
		free(o->verdef[i]);
	free(o->verdef);
	free(o->path);
	free(o->interp);
	free(o->soname);
	free(o->rpath);
	free(o->runpath);
	free(o->debuglink);
	for (size_t i = 0; i < o->n_sections; i++)
		free(o->sections[i].name);
	free(o->sections);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}

long elfobj_pread(const struct elfobj *o, void *buf, size_t n, uint64_t off)
{
	size_t done = 0;

	if (off >= o->size)
		return 0;
	if (n > o->size - off)
		n = (size_t)(o->size - off);
	if (o->mem) {
		memcpy(buf, o->mem + off, n);
		return (long)n;
	}
	while (done < n) {
		ssize_t r = pread(o->fd, (char *)buf + done, n - done, (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (long)done;
}

static bool byte_cached(int fd, uint64_t off);

void elfobj_will_read(const struct elfobj *o, uint64_t off, uint64_t n)
{
	if (o->fd < 0 || n == 0 || off >= o->size)
		return;
	if (n > o->size - off)
		n = o->size - off;
	if (byte_cached(o->fd, off) && byte_cached(o->fd, off + n - 1))
		return;
	posix_fadvise(o->fd, (off_t)off, (off_t)n, POSIX_FADV_WILLNEED);
}

long elfobj_read_chunk(const struct elfobj *o, void *buf, size_t n, uint64_t off)
{
	long got = elfobj_pread(o, buf, n, off);
	struct stat st;

	if (got < 0 || o->mem || off >= o->size)
		return got;
	if (n > o->size - off)
		n = (size_t)(o->size - off);
	if ((size_t)got < n && fstat(o->fd, &st) == 0 && (uint64_t)st.st_size < o->size)
		return -2;
	return got;
}

struct read_ahead {
	pthread_t th;
	int fd;
	struct elfobj_range *v;
	size_t n;
};

static void *read_ahead_main(void *arg)
{
	struct read_ahead *ra = arg;

	for (size_t i = 0; i < ra->n; i++)
		posix_fadvise(ra->fd, (off_t)ra->v[i].off, (off_t)ra->v[i].len, POSIX_FADV_WILLNEED);
	return NULL;
}

/* Is the byte at off in the page cache? (false also where RWF_NOWAIT is not supported) */
static bool byte_cached(int fd, uint64_t off)
{
	unsigned char b;
	struct iovec iov = { &b, 1 };

	return preadv2(fd, &iov, 1, (off_t)off, RWF_NOWAIT) == 1;
}

static int cmp_range(const void *a, const void *b)
{
	const struct elfobj_range *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

void elfobj_read_ahead(struct elfobj *o, const struct elfobj_range *v, size_t n,
		       uint64_t max_bytes)
{
	struct read_ahead *ra;
	uint64_t total = 0;
	size_t k = 0;

	if (o->fd < 0 || o->read_ahead || !n)
		return;
	ra = pt_xcalloc(1, sizeof(*ra));
	ra->v = pt_xcalloc(n, sizeof(*ra->v));
	for (size_t i = 0; i < n; i++)
		if (v[i].len && v[i].off < o->size)
			ra->v[k++] = (struct elfobj_range){ v[i].off, v[i].len < o->size - v[i].off
									 ? v[i].len : o->size - v[i].off };
	qsort(ra->v, k, sizeof(*ra->v), cmp_range);
	for (size_t i = 0; i < k; i++) {
		struct elfobj_range r = ra->v[i];

		if (ra->n && r.off <= ra->v[ra->n - 1].off + ra->v[ra->n - 1].len) {
			struct elfobj_range *last = &ra->v[ra->n - 1];
			uint64_t end = r.off + r.len;

			if (end > last->off + last->len) {
				total += end - (last->off + last->len);
				last->len = end - last->off;
			}
		} else {
			ra->v[ra->n++] = r;
			total += r.len;
		}
		if (total > max_bytes) {
			ra->v[ra->n - 1].len -= total - max_bytes;
			break;
		}
	}
	/* In the page cache at both ends of every range (a warm cache): no thread. */
	for (k = 0; k < ra->n; k++)
		if (!byte_cached(o->fd, ra->v[k].off) ||
		    !byte_cached(o->fd, ra->v[k].off + ra->v[k].len - 1))
			break;
	ra->fd = k < ra->n ? fcntl(o->fd, F_DUPFD_CLOEXEC, 0) : -1;
	if (ra->fd < 0 || pthread_create(&ra->th, NULL, read_ahead_main, ra) != 0) {
		if (ra->fd >= 0)
			close(ra->fd);
		free(ra->v);
		free(ra);
		return;
	}
	o->read_ahead = ra;
}

static void read_ahead_end(struct elfobj *o)
{
	struct read_ahead *ra = o->read_ahead;

	if (!ra)
		return;
	pthread_join(ra->th, NULL);
	close(ra->fd);
	free(ra->v);
	free(ra);
	o->read_ahead = NULL;
}

int elfobj_loadable(const char *path, int cls, int machine)
{
	struct elfobj_file f;
	int ok = elfobj_loadable_fd(path, cls, machine, &f);

	if (ok == 1)
		close(f.fd);
	return ok;
}

int elfobj_loadable_fd(const char *path, int cls, int machine, struct elfobj_file *f)
{
	const unsigned char *h = f->head;
	struct stat st;
	struct iovec iov;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ok = 0;
	ssize_t n;

	f->fd = -1;
	f->n_head = 0;
	f->cached = false;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	/*
	 * The page the header is in: the program headers too, for
	 * elfobj_open_dynamic_fd. First only from the page cache, to tell
	 * the caller whether the disk had to be read (a cold cache: the
	 * resolver then reads ahead, prefetch.h; a warm one: no read-ahead
	 * hints for the rest).
	 */
	iov.iov_base = f->head;
	iov.iov_len = sizeof(f->head);
	do
		n = preadv2(fd, &iov, 1, 0, RWF_NOWAIT);
	while (n < 0 && errno == EINTR);
	f->cached = n >= (ssize_t)sizeof(f->head) || (n >= 0 && (uint64_t)n >= (uint64_t)st.st_size);
	if (!f->cached) {
		/* Not (all) cached, or RWF_NOWAIT not supported here: read it the ordinary way. */
		do
			n = pread(fd, f->head, sizeof(f->head), 0);
		while (n < 0 && errno == EINTR);
	}
	if (n < EI_NIDENT || memcmp(h, ELFMAG, SELFMAG) != 0) {
		close(fd);
		return 0;
	}
	/* open_verify in glibc elf/dl-load.c: each mismatch skips the file silently. */
	if (h[EI_CLASS] != cls || h[EI_DATA] != ELFDATA2LSB || h[EI_VERSION] != EV_CURRENT ||
	    (h[EI_OSABI] != ELFOSABI_SYSV && h[EI_OSABI] != ELFOSABI_GNU)) {
		close(fd);
		return 0;
	}
	if (cls == ELFCLASS64 && n >= (ssize_t)sizeof(Elf64_Ehdr)) {
		Elf64_Ehdr e;
		memcpy(&e, h, sizeof(e));
		ok = e.e_machine == machine && e.e_version == EV_CURRENT &&
		     e.e_phentsize == sizeof(Elf64_Phdr) &&
		     e.e_phoff + (uint64_t)e.e_phnum * e.e_phentsize <= (uint64_t)st.st_size;
	} else if (cls == ELFCLASS32 && n >= (ssize_t)sizeof(Elf32_Ehdr)) {
		Elf32_Ehdr e;
		memcpy(&e, h, sizeof(e));
		ok = e.e_machine == machine && e.e_version == EV_CURRENT &&
		     e.e_phentsize == sizeof(Elf32_Phdr) &&
		     e.e_phoff + (uint64_t)e.e_phnum * e.e_phentsize <= (uint64_t)st.st_size;
	}
	if (ok) {
		f->fd = fd;
		f->dev = st.st_dev;
		f->ino = st.st_ino;
		f->size = (uint64_t)st.st_size;
		f->n_head = (size_t)n;
	} else {
		close(fd);
	}
	return ok;
}

const char *elfobj_machine_name(int machine)
{
	static char buf[16];

	switch (machine) {
	case EM_X86_64: return "x86-64";
	case EM_386: return "i386";
	case EM_AARCH64: return "AArch64";
	case EM_ARM: return "ARM";
	case EM_PPC64: return "PowerPC64";
	case EM_S390: return "s390";
	case EM_RISCV: return "RISC-V";
	default:
		pt_fmt_trunc(buf, sizeof(buf), "machine %d", machine);
		return buf;
	}
}

void elfobj_build_id_hex(const struct elfobj *o, char *out)
{
	for (size_t i = 0; i < o->build_id_len; i++)
		sprintf(out + 2 * i, "%02x", o->build_id[i]);
	out[2 * o->build_id_len] = '\0';
}
