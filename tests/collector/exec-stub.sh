#!/usr/bin/env bash
# A stand-in for kubectl (tests/collector/run-tests.sh, node_files_copied):
# answers `kubectl exec` as virt-handler and virt-launcher pods would and
# passes every other command to the real kubectl (@REAL@). virt-handler-y has
# no capabilities.xml; the launcher's CPU map is the tar file @MAP@.
for a in "$@"; do
	[ "$a" = -- ] && break
	[ "$a" = exec ] && break
done
[ "$a" = exec ] || exec @REAL@ "$@"
pod='' container=''
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	case $1 in
	-c) container=$2; shift ;;
	-n|--cache-dir|--kubeconfig|--context|--request-timeout) shift ;;
	-*|exec) ;;
	*) pod=$1 ;;
	esac
	shift
done
shift
case "$container $*" in
"virt-handler cat /var/lib/kubevirt-node-labeller/capabilities.xml")
	if [ "$pod" = virt-handler-y ]; then
		echo 'cat: /var/lib/kubevirt-node-labeller/capabilities.xml: No such file or directory' >&2
		echo 'command terminated with exit code 1' >&2
		exit 1
	fi
	echo "<capabilities.xml pod='$pod'/>"
	;;
"virt-handler cat /var/lib/kubevirt-node-labeller/"*)
	echo "<${2##*/} pod='$pod'/>"
	;;
"compute tar -C /usr/share/libvirt/cpu_map -cf - .")
	cat @MAP@
	;;
*)
	echo "exec-stub: unexpected exec: $container $*" >&2
	exit 1
	;;
esac
