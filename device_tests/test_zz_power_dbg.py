import time
from android_harness.power import PowerSampler
def test_dbg(device, remote_dir):
    s = PowerSampler(device, f"{remote_dir}/power.csv", 10, seconds=2)
    print(s._launch_command())
    try:
        s.start()
    except Exception as e:
        print("ERR", e)
    print(device.shell(f"ls -la {remote_dir}; cat {remote_dir}/power.csv.log; ps -ef | grep sampler | head", check=False).stdout)
