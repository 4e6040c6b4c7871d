# tests/bench/slurm_cluster.sh: a one-node Slurm cluster in a temporary
# folder, for tests (sourced).  munged, slurmctld and slurmd from Debian's
# packages run as root in the foreground-less daemon mode, with their own
# key, socket, ports, state and logs under $KA_SLURM_DIR; nothing under
# /etc is used or changed.  Four fake GPUs (character devices made with
# mknod, listed in gres.conf) let jobs ask for --gres=gpu:N.
#   ka_slurm_start DIR   start it; exports SLURM_CONF; 0 when the node is idle
#   ka_slurm_stop        stop the daemons it started (by their pid files)

ka_slurm_start() {
	KA_SLURM_DIR=$1
	local d=$KA_SLURM_DIR host port
	mkdir -p "$d/state" "$d/spool" "$d/dev" "$d/munge"
	chmod 700 "$d/munge"
	host=$(hostname -s)
	# munge: its own key and socket
	dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 status=none
	chmod 400 "$d/munge/munge.key"
	/usr/sbin/munged --force --key-file="$d/munge/munge.key" --socket="$d/munge/munge.sock" \
		--pid-file="$d/munge/munged.pid" --log-file="$d/munge/munged.log" \
		--seed-file="$d/munge/munged.seed" || return 1
	# fake GPUs: character devices no driver serves (1,3 is /dev/null's number)
	for i in 0 1 2 3; do mknod "$d/dev/nvidia$i" c 1 3 || return 1; done
	port=$((20000 + RANDOM % 20000))
	cat > "$d/slurm.conf" <<CONF
ClusterName=kcheck-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.sock
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
GresTypes=gpu
MinJobAge=600
KillWait=2
OverTimeLimit=0
InactiveLimit=0
SchedulerParameters=sched_interval=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=8 RealMemory=1000 Gres=gpu:4 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
	cat > "$d/gres.conf" <<CONF
NodeName=$host Name=gpu File=$d/dev/nvidia[0-3]
CONF
	export SLURM_CONF="$d/slurm.conf"
	/usr/sbin/slurmctld -i -f "$SLURM_CONF" || return 1
	/usr/sbin/slurmd -f "$SLURM_CONF" || return 1
	for _ in $(seq 1 60); do
		if sinfo -h -o '%t' 2>/dev/null | grep -qx 'idle'; then return 0; fi
		sleep 0.5
	done
	echo "slurm_cluster: the node did not become idle:" >&2
	sinfo >&2 || true
	tail -n 20 "$d/slurmctld.log" "$d/slurmd.log" >&2 || true
	return 1
}

ka_slurm_stop() {
	local d=${KA_SLURM_DIR:-}
	[ -n "$d" ] || return 0
	for f in "$d/slurmd.pid" "$d/slurmctld.pid" "$d/munge/munged.pid"; do
		[ -s "$f" ] && kill "$(cat "$f" 2>/dev/null)" 2>/dev/null
	done
	for f in "$d/slurmd.pid" "$d/slurmctld.pid" "$d/munge/munged.pid"; do
		for _ in $(seq 1 50); do
			[ -s "$f" ] && kill -0 "$(cat "$f" 2>/dev/null)" 2>/dev/null || break
			sleep 0.1
		done
	done
	return 0
}
