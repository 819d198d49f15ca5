/*
 * Reading one ELF object with libelf; see elfobj.h. The dynamic array is
 * found through PT_DYNAMIC and its addresses mapped through PT_LOAD, as
 * ld.so does, so section-stripped files work (docs/formats/elf-loader.md §1).
 */
#include "elfobj.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

static void add_section(struct elfobj *o, size_t *alloc, const char *name, const GElf_Shdr *sh)
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
		add_section(o, &sec_alloc, name, &sh);
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
	uint64_t strtab, strsz, verneed, verneednum, verdef, verdefnum;
	int have_strtab;
};

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
	uint64_t rpath = 0, runpath = 0, soname = 0;
	int have_rpath = 0, have_runpath = 0, have_soname = 0;
	uint64_t *needed = NULL;
	size_t n_needed = 0, alloc = 0;
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
		/* Single-valued tags: the last one wins, as in get-dynamic-info.h. */
		switch (e.d_tag) {
		case DT_NEEDED:
			PT_GROW(needed, n_needed, alloc);
			needed[n_needed++] = e.d_un.d_val;
			break;
		case DT_SONAME: soname = e.d_un.d_val; have_soname = 1; break;
		case DT_RPATH: rpath = e.d_un.d_val; have_rpath = 1; break;
		case DT_RUNPATH: runpath = e.d_un.d_val; have_runpath = 1; break;
		case DT_STRTAB: dv.strtab = e.d_un.d_ptr; dv.have_strtab = 1; break;
		case DT_STRSZ: dv.strsz = e.d_un.d_val; break;
		case DT_FLAGS_1: o->flags_1 = e.d_un.d_val; break;
		case DT_VERNEED: dv.verneed = e.d_un.d_ptr; break;
		case DT_VERNEEDNUM: dv.verneednum = e.d_un.d_val; break;
		case DT_VERDEF: dv.verdef = e.d_un.d_ptr; break;
		case DT_VERDEFNUM: dv.verdefnum = e.d_un.d_val; break;
		default: break;
		}
	}

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
	} else if (n_needed || have_soname || have_rpath || have_runpath) {
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

	o->needed = pt_xcalloc(n_needed ? n_needed : 1, sizeof(char *));
	for (size_t i = 0; i < n_needed; i++) {
		char *s = NULL;
		DSTR(s, needed[i], "DT_NEEDED");
		if (s)
			o->needed[o->n_needed++] = s;
	}
	if (have_soname)
		DSTR(o->soname, soname, "DT_SONAME");
	if (have_rpath)
		DSTR(o->rpath, rpath, "DT_RPATH");
	if (have_runpath)
		DSTR(o->runpath, runpath, "DT_RUNPATH");
#undef DSTR
	free(needed);
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

static int open_file(struct elfobj *o, const char *path, bool full, struct pt_diag *diag)
{
	struct pt_mapguard g;
	struct stat st;
	Elf *elf;

	elfobj_zero(o, path);
	elf_version(EV_CURRENT);
	o->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (o->fd < 0 || fstat(o->fd, &st) != 0) {
		pt_diag_add(diag, PT_SEV_ERROR, path, NULL, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		pt_diag_add(diag, PT_SEV_ERROR, path, NULL, "not a regular file");
		return -1;
	}
	o->size = (uint64_t)st.st_size;
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
	return open_file(o, path, true, diag);
}

int elfobj_open_dynamic(struct elfobj *o, const char *path, struct pt_diag *diag)
{
	return open_file(o, path, false, diag);
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

void elfobj_release(struct elfobj *o)
{
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

int elfobj_loadable(const char *path, int cls, int machine)
{
	unsigned char h[64];
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ok = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	n = pread(fd, h, sizeof(h), 0);
	close(fd);
	if (n < EI_NIDENT || memcmp(h, ELFMAG, SELFMAG) != 0)
		return 0;
	/* open_verify in glibc elf/dl-load.c: each mismatch skips the file silently. */
	if (h[EI_CLASS] != cls || h[EI_DATA] != ELFDATA2LSB || h[EI_VERSION] != EV_CURRENT ||
	    (h[EI_OSABI] != ELFOSABI_SYSV && h[EI_OSABI] != ELFOSABI_GNU))
		return 0;
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
