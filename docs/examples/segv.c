/* A CPython extension with a bug: crash() reads through a NULL pointer (docs/guide-pttrace.md). */
#include <Python.h>

static PyObject *crash(PyObject *self, PyObject *args)
{
	volatile int *p = NULL;

	(void)self;
	(void)args;
	return PyLong_FromLong(*p);
}

static PyMethodDef methods[] = { { "crash", crash, METH_NOARGS, NULL }, { NULL, NULL, 0, NULL } };
static struct PyModuleDef def = { PyModuleDef_HEAD_INIT, "segv", NULL, -1, methods };

PyMODINIT_FUNC PyInit_segv(void)
{
	return PyModule_Create(&def);
}
