//go:build unix

package main

import (
	"io"
	"io/fs"
	"syscall"
)

// openInput opens the input file path for one whole read. It holds the
// descriptor itself instead of an *os.File: os.Open hands every file to
// the runtime's poller (on the first file an epoll instance and an
// eventfd, on each four fcntl calls and an epoll_ctl that a regular file
// refuses), which a file read once, whole, does not use. Errors are the
// *fs.PathError values os.Open and os.File.Read give.
func openInput(path string) (io.ReadCloser, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return inputFile{fd: fd, path: path}, nil
	}
}

// inputFile reads a descriptor openInput opened.
type inputFile struct {
	fd   int
	path string
}

func (f inputFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(f.fd, p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, &fs.PathError{Op: "read", Path: f.path, Err: err}
		}
		if n == 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f inputFile) Close() error { return syscall.Close(f.fd) }
