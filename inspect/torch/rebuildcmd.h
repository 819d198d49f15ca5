/*
 * The command that rebuilds a torch checkout in place, as the messages
 * spell it. torch's README moved from `python setup.py develop` to pip in
 * 2025 (pytorch/pytorch pull 156027: setuptools >= 80 makes `setup.py
 * develop` a deprecated wrapper around `pip install -e .`); older
 * checkouts document the setup.py form, which still works there.
 */
#ifndef PT_REBUILDCMD_H
#define PT_REBUILDCMD_H

#define PT_REBUILD_CMD "pip install -e . -v --no-build-isolation"
#define PT_REBUILD_CMD_OLD "python setup.py develop"
/* Both, for a message that does not know the checkout's version. */
#define PT_REBUILD_BOTH PT_REBUILD_CMD "; older checkouts: " PT_REBUILD_CMD_OLD

#endif
