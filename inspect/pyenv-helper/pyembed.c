/*
 * ptinspect-pyenv PYTHON: import torch in the environment of PYTHON and
 * print one JSON report (after the line PYENV_MARKER on stdout). The only
 * file that includes Python.h (style doc: one door per dependency); it is a
 * separate executable so that ptinspect never links libpython and its own
 * libraries never show up in the loaded-objects list.
 *
 * PYTHON built on the libpython this helper links (same real file as
 * PT_EMBED_PYTHON, e.g. Debian's /usr/bin/python3 or a venv made from it) is
 * embedded: the link map is then read with dl_iterate_phdr in this process.
 * Any other interpreter runs the same script as `PYTHON -c`, reading its own
 * link map through ctypes; the report says which ("mode").
 *
 * Nothing is imported from the current directory: `PYTHON -c` puts it first
 * on sys.path, the script takes it off before its first import (the embedded
 * interpreter never has it). --here puts it back, right before the torch
 * lookups, as `PYTHON -c 'import torch'` run there has it. Before the import
 * the facts found so far go out as a first document (PRE marker), so that a
 * parent that kills a hung import can still diagnose it; SIGUSR1 then dumps
 * every thread's Python stack to stdout (faulthandler).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PT_EMBED_PYTHON
#define PT_EMBED_PYTHON "/usr/bin/python3"
#endif

/*
 * Part one: sys.path candidates, the import (stderr captured), the torch
 * facts; every lookup guarded so a fake or broken torch still gives a report.
 */
static const char SCRIPT_IMPORT[] =
	"import sys\n"
	"# `python -c` put the current directory first on sys.path: unless --here asks for it,\n"
	"# nothing is imported from there (a torch/ or json.py in it is never run).\n"
	"_safe = bool(getattr(sys.flags, 'safe_path', False) or sys.flags.isolated)\n"
	"if '__pt_embedded' not in globals() and not _safe and sys.path and sys.path[0] == '':\n"
	"    del sys.path[0]\n"
	"# The script's own modules, before the current directory can be on sys.path.\n"
	"for _m in ('os', 'io', 'json', 'site', 'platform', 'importlib.util', 'importlib.machinery',\n"
	"           'importlib.metadata', 'faulthandler') + (() if '__pt_embedded' in globals() else ('ctypes',)):\n"
	"    try: __import__(_m)\n"
	"    except BaseException: pass\n"
	"import os, io, json\n"
	"faulthandler, ctypes = sys.modules.get('faulthandler'), sys.modules.get('ctypes')\n"
	"R = {'executable': sys.executable, 'python_version': sys.version.split()[0],\n"
	"     'python_version_full': sys.version.replace('\\n', ' '),\n"
	"     'python_bits': sys.maxsize.bit_length() + 1,\n"
	"     'prefix': sys.prefix, 'base_prefix': sys.base_prefix,\n"
	"     'mode': 'embedded' if '__pt_embedded' in globals() else 'child',\n"
	"     'here': bool(__pt_here), 'cwd_dropped': not _safe and not __pt_here,\n"
	"     'errors': {}}\n"
	"# At ptinspect's deadline: every thread's Python stack, to stdout, from the signal handler.\n"
	"try: faulthandler.register(__pt_dump_signal, file=sys.__stdout__, all_threads=True)\n"
	"except BaseException: pass\n"
	"R['env'] = {k: os.environ.get(k) for k in ('LD_LIBRARY_PATH', 'LD_PRELOAD', 'PYTHONPATH',\n"
	"    'CUDA_MODULE_LOADING', 'CUDA_VISIBLE_DEVICES', 'CONDA_PREFIX', 'VIRTUAL_ENV')}\n"
	"try: R['cwd'] = os.getcwd()\n"
	"except OSError: R['cwd'] = None\n"
	"try:\n"
	"    import site\n"
	"    R['site_dirs'] = list(site.getsitepackages()) + [site.getusersitepackages()]\n"
	"except BaseException: R['site_dirs'] = []\n"
	"try:\n"
	"    import importlib.machinery\n"
	"    R['ext_suffixes'] = list(importlib.machinery.EXTENSION_SUFFIXES)\n"
	"except BaseException: R['ext_suffixes'] = ['.so']\n"
	"try:\n"
	"    import platform\n"
	"    R['python_platform'] = platform.platform()\n"
	"    R['libc_ver'] = '-'.join(platform.libc_ver())\n"
	"except BaseException: pass\n"
	"# collect_env's 'Versions of relevant libraries': installed distributions, read not imported\n"
	"_rel = ('torch', 'numpy', 'mypy', 'flake8', 'triton', 'optree', 'onnx', 'nccl', 'nvidia',\n"
	"        'cudnn', 'mkl', 'magma', 'cuda')\n"
	"try:\n"
	"    import importlib.metadata as _md\n"
	"    _dd = {}\n"
	"    for _d in _md.distributions():\n"
	"        _n = _d.metadata['Name'] or ''\n"
	"        if any(x in _n.lower() for x in _rel) and _n.lower() not in _dd:\n"
	"            _dd[_n.lower()] = [_n, _d.version]\n"
	"    R['distributions'] = sorted(_dd.values(), key=lambda x: x[0].lower())\n"
	"except BaseException: R['distributions'] = []\n"
	"def _kind(d):\n"
	"    try: names = os.listdir(d)\n"
	"    except OSError: names = []\n"
	"    if 'setup.py' in names and ('.git' in names or 'CMakeLists.txt' in names):\n"
	"        return 'source tree'\n"
	"    if d.startswith('/usr/lib/python3/dist-packages'): return 'debian package'\n"
	"    if any(n.startswith('torch-') and n.endswith('.dist-info') for n in names):\n"
	"        return 'pip wheel'\n"
	"    if any(n.startswith('torch') and n.endswith(('.egg-link', '.pth')) for n in names):\n"
	"        return 'develop install'\n"
	"    return 'directory'\n"
	"if __pt_here and not _safe:\n"
	"    sys.path.insert(0, '')  # --here: as `python -c` run here has it, the current directory first\n"
	"R['sys_path'] = list(sys.path)\n"
	"try:\n"
	"    import importlib.util\n"
	"    _s = importlib.util.find_spec('torch')  # finders only: torch is not run\n"
	"    R['torch_spec'] = (_s.origin or list(_s.submodule_search_locations or [''])[0]) if _s else None\n"
	"except BaseException as e: R['torch_spec'] = None\n"
	"_c, _seen = [], set()\n"
	"for _d in sys.path:\n"
	"    _a = os.path.abspath(_d or os.getcwd())\n"
	"    if _a in _seen: continue\n"
	"    _seen.add(_a)\n"
	"    if os.path.isfile(os.path.join(_a, 'torch', '__init__.py')):\n"
	"        _c.append({'dir': _a, 'kind': _kind(_a)})\n"
	"R['torch_candidates'] = _c\n"
	"def _linkmap():\n"
	"    class _I(ctypes.Structure):\n"
	"        _fields_ = [('addr', ctypes.c_void_p), ('name', ctypes.c_char_p)]\n"
	"    out = []\n"
	"    CB = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(_I), ctypes.c_size_t, ctypes.c_void_p)\n"
	"    def cb(info, size, data):\n"
	"        n = info.contents.name\n"
	"        out.append(os.fsdecode(n) if n else '')\n"
	"        return 0\n"
	"    ctypes.CDLL(None).dl_iterate_phdr(CB(cb), None)\n"
	"    return out\n"
	"if '__pt_embedded' not in globals():\n"
	"    __pt_before = _linkmap()\n"
	"# What was found before the import: ptinspect's diagnosis when the import never returns.\n"
	"sys.stdout.flush()\n"
	"sys.stdout.write('\\n@@PTINSPECT-PYENV-PRE@@\\n' + json.dumps(R) + '\\n@@PTINSPECT-PYENV-IMPORTING@@\\n')\n"
	"sys.stdout.flush()\n"
	"_err, _old = io.StringIO(), sys.stderr\n"
	"sys.stderr = _err\n"
	"try:\n"
	"    import torch\n"
	"    R['torch_ok'] = True\n"
	"except BaseException as e:\n"
	"    R['torch_ok'] = False\n"
	"    R['import_error'] = '%s: %s' % (type(e).__name__, e)\n"
	"finally:\n"
	"    sys.stderr = _old\n"
	"sys.stdout.flush()\n"
	"sys.stdout.write('\\n@@PTINSPECT-PYENV-IMPORTED@@\\n')\n"
	"sys.stdout.flush()\n"
	"R['import_stderr'] = _err.getvalue()[-4000:]\n"
	"def _get(key, f):\n"
	"    try: R[key] = f()\n"
	"    except BaseException as e:\n"
	"        R[key] = None\n"
	"        R['errors'][key] = '%s: %s' % (type(e).__name__, e)\n"
	"if R['torch_ok']:\n"
	"    _get('torch_file', lambda: torch.__file__)\n"
	"    _get('torch_version', lambda: str(torch.__version__))\n"
	"    _get('git_version', lambda: torch.version.git_version)\n"
	"    _get('debug', lambda: bool(torch.version.debug))\n"
	"    _get('cuda', lambda: torch.version.cuda)\n"
	"    _get('hip', lambda: getattr(torch.version, 'hip', None))\n"
	"    _get('arch_list', lambda: list(torch.cuda.get_arch_list()))\n"
	"    _get('config_text', lambda: torch.__config__.show())\n"
	"    _get('cxx11_abi', lambda: bool(torch._C._GLIBCXX_USE_CXX11_ABI))\n"
	"    _get('cuda_available', lambda: bool(torch.cuda.is_available()))\n"
	"    _get('xnnpack', lambda: bool(__import__('torch.backends.xnnpack').backends.xnnpack.enabled))\n"
	"    _get('cudnn_version', lambda: torch.backends.cudnn.version())\n";

/* Part two: the link map (set by C when embedded) and the report. */
static const char SCRIPT_REPORT[] =
	"if '__pt_embedded' not in globals():\n"
	"    __pt_after = _linkmap()\n"
	"_b = set(__pt_before)\n"
	"_l = []\n"
	"for _n in __pt_after:\n"
	"    _p = _n or '/proc/self/exe'\n"
	"    _l.append({'name': _n, 'realpath': os.path.realpath(_p) if os.path.exists(_p) else None,\n"
	"               'by_import': _n not in _b})\n"
	"R['loaded'] = _l\n"
	"sys.stdout.flush()\n"
	"sys.stdout.write('\\n@@PTINSPECT-PYENV-JSON@@\\n' + json.dumps(R) + '\\n')\n"
	"sys.stdout.flush()\n";

static int add_name(struct dl_phdr_info *info, size_t size, void *data)
{
	PyObject *list = data, *s = PyUnicode_DecodeFSDefault(info->dlpi_name ? info->dlpi_name : "");

	(void)size;
	if (s) {
		PyList_Append(list, s);
		Py_DECREF(s);
	}
	return 0;
}

static PyObject *linkmap(void)
{
	PyObject *list = PyList_New(0);

	if (list)
		dl_iterate_phdr(add_name, list);
	return list;
}

static int embeddable(const char *python)
{
	char a[PATH_MAX], b[PATH_MAX];

	if (getenv("PTINSPECT_PYENV_NO_EMBED"))
		return 0;
	if (!realpath(python, a) || !realpath(PT_EMBED_PYTHON, b))
		return 0;
	return strcmp(a, b) == 0;
}

/* The script's settings, as Python: --here, and the signal that dumps the stacks. */
static void settings(char *buf, size_t n, int here)
{
	snprintf(buf, n, "__pt_here = %s\n__pt_dump_signal = %d\n", here ? "True" : "False", SIGUSR1);
}

static int run_child(const char *python, int here)
{
	char head[128];
	size_t n = sizeof(head) + sizeof(SCRIPT_IMPORT) + sizeof(SCRIPT_REPORT);
	char *script = malloc(n);

	if (!script)
		return 2;
	settings(head, sizeof(head), here);
	snprintf(script, n, "%s%s%s", head, SCRIPT_IMPORT, SCRIPT_REPORT);
	fflush(NULL);
	execl(python, python, "-c", script, (char *)NULL);
	fprintf(stderr, "ptinspect-pyenv: '%s': cannot run: %s\n", python, strerror(errno));
	free(script);
	return 2;
}

static int run_embedded(const char *python, int here)
{
	PyConfig config;
	PyStatus st;
	PyObject *main_mod, *globals, *r = NULL, *before = NULL, *after = NULL;
	char head[128];
	int rc = 2;

	PyConfig_InitPythonConfig(&config);
	/*
	 * Without this sys.executable (and so sys.prefix and a venv's
	 * site-packages) would come from the first python3 on PATH.
	 */
	st = PyConfig_SetBytesString(&config, &config.executable, python);
	if (!PyStatus_Exception(st))
		st = PyConfig_SetBytesString(&config, &config.program_name, python);
	if (!PyStatus_Exception(st))
		st = Py_InitializeFromConfig(&config);
	PyConfig_Clear(&config);
	if (PyStatus_Exception(st)) {
		fprintf(stderr, "ptinspect-pyenv: '%s': cannot start the interpreter: %s\n", python,
			st.err_msg ? st.err_msg : "unknown error");
		return 2;
	}
	main_mod = PyImport_AddModule("__main__");	/* borrowed */
	globals = main_mod ? PyModule_GetDict(main_mod) : NULL;
	if (!globals)
		goto out;
	PyDict_SetItemString(globals, "__pt_embedded", Py_True);
	/*
	 * The script's own modules (_json ...) must not count as loaded by
	 * torch. No current directory on sys.path yet: nothing of it is run.
	 */
	settings(head, sizeof(head), here);
	if (PyRun_SimpleString("import sys, os, io, json, site, platform, importlib.util, "
			       "importlib.machinery, importlib.metadata, faulthandler") != 0)
		goto out;
	r = PyRun_String(head, Py_file_input, globals, globals);
	if (!r)
		goto out;
	Py_DECREF(r);
	before = linkmap();
	if (!before || PyDict_SetItemString(globals, "__pt_before", before) < 0)
		goto out;
	r = PyRun_String(SCRIPT_IMPORT, Py_file_input, globals, globals);
	if (!r)
		goto out;
	Py_DECREF(r);
	after = linkmap();
	if (!after || PyDict_SetItemString(globals, "__pt_after", after) < 0)
		goto out;
	r = PyRun_String(SCRIPT_REPORT, Py_file_input, globals, globals);
	if (!r)
		goto out;
	Py_DECREF(r);
	rc = 0;
out:
	if (PyErr_Occurred())
		PyErr_Print();
	Py_XDECREF(before);
	Py_XDECREF(after);
	fflush(stdout);
	fflush(stderr);
	/*
	 * No Py_FinalizeEx() and no exit(): finalising with libtorch loaded runs
	 * its static destructors and thread-pool teardown after the interpreter
	 * state is gone, and under LeakSanitizer the exit-time scan of torch's
	 * and CPython's heaps (never freed, by design of embedding without
	 * finalising) took over 60 s. The report is complete and flushed here.
	 */
	_exit(rc);
}

int main(int argc, char **argv)
{
	int here = argc == 3 && !strcmp(argv[1], "--here");

	if (argc != 2 + here || argv[1 + here][0] == '-') {
		fputs("usage: ptinspect-pyenv [--here] PYTHON\n"
		      "Imports torch in PYTHON's environment and prints a JSON report; run by\n"
		      "ptinspect env/doctor/config --python. The current directory is kept off\n"
		      "sys.path unless --here puts it first, as `PYTHON -c` run there has it.\n", stderr);
		return 2;
	}
	if (embeddable(argv[1 + here]))
		return run_embedded(argv[1 + here], here);
	return run_child(argv[1 + here], here);
}
