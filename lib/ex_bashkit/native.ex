defmodule ExBashkit.Native do
  @moduledoc false
  # NIF stubs; the library is built from native/ex_bashkit_nif by the cargo step in mix.exs.
  @on_load :load_nif

  def load_nif do
    path = :filename.join(:code.priv_dir(:ex_bashkit), ~c"native/libex_bashkit_nif")
    :erlang.load_nif(path, 0)
  end

  defp err, do: :erlang.nif_error(:nif_not_loaded)

  def session_new(_opts), do: err()
  def python_load(_path), do: err()
  def exec_start(_session, _script, _opts, _pid, _tag), do: err()
  def cancel(_session), do: err()
  def callback_reply(_session, _id, _reply), do: err()
  def bridge_pending(_session), do: err()
  def bridge_resumed(_session), do: err()
  def job_start(_session, _script, _opts, _name, _max_jobs), do: err()
  def jobs_list(_session), do: err()
  def job_terminate(_session, _id), do: err()
  def job_await(_session, _id, _pid, _tag), do: err()
  def job_await_cancel(_session, _waiter), do: err()
  def history_list(_session), do: err()
  def fs_mark(_session), do: err()
  def fs_changes(_session, _marker, _prefix), do: err()
  def history_clear(_session), do: err()
  def aliases_list(_session), do: err()
  def alias_set(_session, _name, _value), do: err()
  def snapshot_start(_session, _key, _exclude_fs, _exclude_funcs, _pid, _tag), do: err()
  def restore_start(_session, _bytes, _key, _pid, _tag), do: err()
  def checkpoint_start(_session, _key, _full, _pid, _tag), do: err()
  def checkpoint_commit(_session), do: err()
  def restore_chain_start(_session, _full, _deltas, _key, _pid, _tag), do: err()
  def read_file(_session, _path), do: err()
  def write_file(_session, _path, _data), do: err()
  def list_dir(_session, _path), do: err()
  def mkdir(_session, _path, _parents), do: err()
  def remove(_session, _path, _recursive), do: err()
  def rename(_session, _from, _to), do: err()
  def stat(_session, _path), do: err()
  def admission_configure(_max_running, _max_queued, _queue_timeout_ms), do: err()
  def admission_info(), do: err()
end
